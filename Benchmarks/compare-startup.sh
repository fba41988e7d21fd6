#!/usr/bin/env bash
# Prints, from one run on this machine, how long `coffer` takes to start and to read one secret from the Secret
# Service, as ratios to `secret-tool lookup` of the same item and to `/bin/true` (the floor: fork, exec, exit).
# Every command is timed by hyperfine (no shell in between) in the same D-Bus session against the same
# gnome-keyring, which the script starts itself (as .ci/secret-service.sh does for the tests).
#
# Usage: bash Benchmarks/compare-startup.sh [label=path/to/coffer ...]
#   Default: coffer=.build/release/coffer (build it first: swift build -c release --product coffer). Give several
#   binaries to compare builds side by side, e.g. a static one:
#     swift build -c release --product coffer --scratch-path /tmp/coffer-static-build --static-swift-stdlib -Xlinker -s
#     bash Benchmarks/compare-startup.sh shared=.build/release/coffer static=/tmp/coffer-static-build/release/coffer
#   Figures and what they showed: Benchmarks/RESULTS.md.
# Environment: RUNS (timed runs per command, default 200) spread over ROUNDS (default 10), WARMUP (default 20).
# Needs: hyperfine, dbus, gnome-keyring, libsecret-tools, libglib2.0-bin, jq (installed with apt-get when missing).
# Exits non-zero when a package cannot be installed, a binary is missing, or any command fails or prints another
# value than the one stored.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

if [ "${1-}" != "--inside-session" ]; then
    missing=()
    for pair in hyperfine:hyperfine dbus-run-session:dbus gnome-keyring-daemon:gnome-keyring \
        secret-tool:libsecret-tools gdbus:libglib2.0-bin jq:jq; do
        command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "installing ${missing[*]}" >&2
        apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
    [ $# -gt 0 ] || set -- "coffer=$root/.build/release/coffer"
    for pair in "$@"; do
        binary=${pair#*=}
        if [ ! -x "$binary" ]; then
            echo "compare-startup: no executable at $binary (swift build -c release --product coffer)" >&2
            exit 2
        fi
    done
    exec dbus-run-session -- sh "$root/.ci/secret-service.sh" bash "$0" --inside-session "$@"
fi
shift

runs=${RUNS:-200}
warmup=${WARMUP:-20}
work=$(mktemp -d /tmp/coffer-startup.XXXXXX)
trap 'rm -rf "$work"' EXIT

# One item, written the way secret-tool writes it; Coffer reads the same attributes (service, account).
service=coffer-startup-benchmark
account=bench/token
value="startup-$RANDOM$RANDOM"
printf '%s' "$value" | secret-tool store --label="coffer startup benchmark" service "$service" account "$account"

# Every command must work and print the value before it is timed.
check() {
    local label=$1 expected=$2
    shift 2
    local output
    if ! output=$("$@" 2>"$work/stderr"); then
        echo "compare-startup: $label failed: $(cat "$work/stderr")" >&2
        exit 1
    fi
    if [ -n "$expected" ] && [ "$output" != "$expected" ]; then
        echo "compare-startup: $label printed something other than the stored value" >&2
        exit 1
    fi
}
names=("true" "secret-tool lookup")
commands=("/bin/true" "secret-tool lookup service $service account $account")
check "secret-tool lookup" "$value" secret-tool lookup service "$service" account "$account"
for pair in "$@"; do
    label=${pair%%=*}
    binary=$(cd "$(dirname "${pair#*=}")" && pwd)/$(basename "${pair#*=}")
    check "$label --version" "" "$binary" --version
    check "$label secrets get" "$value" "$binary" secrets get --backend secret-service --service "$service" "$account"
    names+=("$label --version" "$label secrets get")
    commands+=("$binary --version" "$binary secrets get --backend secret-service --service $service $account")
    printf '%s: %s, %s bytes\n' "$label" "$binary" "$(stat -c %s "$binary")"
done

arguments=()
for index in "${!commands[@]}"; do arguments+=(--command-name "${names[$index]}" "${commands[$index]}"); done
# The runs are spread over rounds, each timing every command in turn, so that a burst of load from elsewhere on the
# machine lands on all of them alike rather than on whichever command it was timing then.
rounds=${ROUNDS:-10}
for round in $(seq "$rounds"); do
    hyperfine -N --style none --warmup "$((round == 1 ? warmup : 2))" --runs "$(((runs + rounds - 1) / rounds))" \
        --export-json "$work/round-$round.json" "${arguments[@]}" >/dev/null 2>"$work/hyperfine.err" || {
        cat "$work/hyperfine.err" >&2
        exit 1
    }
done

# Wall-clock time per run (median and mean, in ms) and CPU time (user + system, mean), each command's median as a
# ratio to secret-tool's and to /bin/true's.
jq -s -r '[.[].results[]] | group_by(.command) | map({
        name: .[0].command, times: ([.[].times[]] | sort),
        cpu: (([.[] | (.user + .system) * (.times | length)] | add) / ([.[].times | length] | add))
    }) | .[] | [.name, (.times[(.times | length) / 2 | floor]), ((.times | add) / (.times | length)), .cpu,
        (.times | length)] | @tsv' "$work"/round-*.json | awk -F '\t' -v order="$(printf '%s\n' "${names[@]}")" '
    BEGIN { n = split(order, wanted, "\n") }
    { median[$1] = $2; mean[$1] = $3; cpu[$1] = $4; count[$1] = $5 }
    END {
        tool = median["secret-tool lookup"]; floor = median["true"]
        printf "%-30s %9s %9s %9s %6s %13s %9s\n", "command", "median ms", "mean ms", "cpu ms", "runs", "/secret-tool",
            "/true"
        for (i = 1; i <= n; i++) {
            name = wanted[i]
            printf "%-30s %9.2f %9.2f %9.2f %6d %13.2f %9.2f\n", name, median[name] * 1e3, mean[name] * 1e3,
                cpu[name] * 1e3, count[name], median[name] / tool, median[name] / floor
        }
        print "ratios are of medians; cpu is user + system time"
    }'
