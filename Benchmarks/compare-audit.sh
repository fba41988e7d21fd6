#!/usr/bin/env bash
# Prints, from one run on this machine, what the access audit (issue 18 §2) costs a 64 B read: reads per second
# through SecretsStore without an audit and with each sink configuration (swift-log's StreamLogHandler writing to a
# file, swift-prometheus's metrics factory, the audit file buffered or synchronous, and log + file buffered + metrics
# together), over the encrypted file store and in memory, on 1 and 2 concurrent tasks, plus the synchronous
# AuditedSecretsStore read vs the bare AggregateSecretsStore read; each as a ratio to the plain read measured in the
# same rounds. Then checks that no event was lost: every audit file verifies intact and holds one record per read
# made, the log one line per read, the Prometheus counter one count per read.
# The goal (issue 18): log + file buffered + metrics on the encrypted file store, 1 task, ratio >= 0.90, reported
# from the interleaved run, from fresh processes in pairs (each alone, as an application runs), and from reads
# paced at 2,000 a second (the median read's time, plain over audited), each read timed on its own.
# Usage: bash Benchmarks/compare-audit.sh [scratch-directory on the disk to measure] [rounds (5)] [seconds per turn (0.5)]
set -euo pipefail
cd "$(dirname "$0")"
scratch=${1:-$(pwd)/.build}
rounds=${2:-5}
seconds=${3:-0.5}
mkdir -p "$scratch"

flock /tmp/coffer-build.lock swift build -c release --product audit-baseline >/tmp/audit-baseline-build.log 2>&1 ||
    { grep -E "error" /tmp/audit-baseline-build.log >&2; exit 1; }
binary=$(swift build -c release --show-bin-path)/audit-baseline
status=0
# The value on the line of standard input that starts with the word $1.
field() { awk -v key="$1" '$1 == key { print $2 }'; }
# $1 / $2, to three decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

results=$("$binary" "$scratch" "$rounds" "$seconds") || status=$?
echo "$results"
goal=$(echo "$results" | field goal-ratio)
control=$(echo "$results" | field control-ratio)

# The goal configuration again, each turn a process of its own (no other configuration's sinks, files or timers in
# it), for as many rounds as the interleaved run: a plain process, an audited one and a second plain one (the
# control), in an order that rotates, since a process runs faster or slower for following another. Reported: the
# median of the rounds' audited/plain ratios, and of their plain/plain ones.
echo
echo "goal configuration in fresh processes, $rounds rounds of $seconds s (plain, log + file buffered + metrics, plain again):"
rate() { "$binary" "$scratch" profile encrypted-file "$1" "$seconds" 1 | awk '/reads\/s/ { print $(NF-1) }'; }
median() { printf '%s\n' "$@" | sort -n | awk '{ r[NR] = $1 } END { print r[int((NR + 1) / 2)] }'; }
pairs=()
controls=()
for round in $(seq 1 "$rounds"); do
    case $((round % 3)) in
    1) plain=$(rate none); audited=$(rate all); again=$(rate none) ;;
    2) audited=$(rate all); again=$(rate none); plain=$(rate none) ;;
    0) again=$(rate none); plain=$(rate none); audited=$(rate all) ;;
    esac
    pairs+=("$(ratio "$audited" "$plain")")
    controls+=("$(ratio "$again" "$plain")")
done
fresh=$(median "${pairs[@]}")
freshControl=$(median "${controls[@]}")
echo "  audited/plain ratios ${pairs[*]}; median $fresh"
echo "  control, plain/plain ${controls[*]}; median $freshControl"

# The goal configuration with reads at a steady 2,000 a second, as an application's come, instead of back to back;
# then the same with a second plain store in place of the audited one (the control).
echo
paced=$("$binary" "$scratch" latency "$((rounds * 2))" 2000 1) || status=$?
echo "$paced"
latency=$(echo "$paced" | field latency-goal-ratio)
pacedControl=$("$binary" "$scratch" latency "$((rounds * 2))" 2000 1 control) || status=$?
echo "$pacedControl"
latencyControl=$(echo "$pacedControl" | field latency-goal-ratio)

awk -v goal="$goal" -v control="$control" -v fresh="$fresh" -v freshControl="$freshControl" \
    -v latency="$latency" -v latencyControl="$latencyControl" 'BEGIN {
    printf "\ngoal: log + file buffered + metrics, encrypted file, 1 task, ratio >= 0.90 (control: plain against plain):\n"
    printf "  interleaved in one process: %.2f (%s; control %.2f)\n", goal, (goal >= 0.90) ? "met" : "NOT met", control
    printf "  fresh processes:            %.2f (%s; control %.2f)\n", fresh, (fresh >= 0.90) ? "met" : "NOT met",
        freshControl
    printf "  paced, median read:         %.2f (%s; control %.2f)\n", latency, (latency >= 0.90) ? "met" : "NOT met",
        latencyControl
}'
exit "$status"
