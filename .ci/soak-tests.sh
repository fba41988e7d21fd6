#!/usr/bin/env bash
# Soak: runs the test suites that start servers (in-process Hummingbird servers, `coffer serve`, URLSession
# clients, child processes) again and again under a competing CPU load, with a time limit per run, and fails on a
# hang, printing every thread's stack of the hung test process (what it found: .ci/README.md).
#
# Use, after `flock /tmp/coffer-build.lock swift build --build-tests`:
#   .ci/soak-tests.sh [-n RUNS] [-t SECONDS] [-s CPU_HOGS] [-c CPUS] [-f FILTER] [-b BINARY_DIR] [-S]
#     -n  runs (default 20)
#     -t  time limit of one run in seconds (default 300; a run takes ~20 s alone, ~2 min with -c 0 -s 3)
#     -s  processes of stress-ng --cpu (or `yes` when stress-ng is missing) beside the tests (default 4; 0: none)
#     -c  pins the test process and the load to these CPUs with taskset (say 0: one core, the easiest to wedge)
#     -f  Swift Testing --filter (default: the suites that start servers or clients)
#     -b  directory with CofferPackageTests.xctest and the executables the tests run (coffer, APIClientExample…);
#         default: a private copy of .build/debug's, so that a rebuild meanwhile does not change them under the soak
#     -S  sets LIBDISPATCH_COOPERATIVE_POOL_STRICT=1 (no effect seen on Linux, where Swift runs its tasks on
#         libdispatch's default-QoS root queue rather than a cooperative one)
# Needs: gdb (apt-get install -y gdb) for the stacks; stress-ng is optional (apt-get install -y stress-ng).
# Prints one line per run and ends with "soak: N passed, N failed"; exits 1 when a run failed or hung. Each
# run's output, and the stacks of a hung run, are kept in the log directory it prints first.
# Everything it starts (the load, the test process) is stopped when it ends, also on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=20 limit=300 hogs=4 cpus="" strict=0 bin=""
filter='WalletServerTests|cofferTests|ProntoWalletIntegrationTests|ProntoWalletSDKTests|TokenAuthenticationTests'
while getopts "n:t:s:c:f:b:S" option; do
    case $option in
        n) runs=$OPTARG ;;
        t) limit=$OPTARG ;;
        s) hogs=$OPTARG ;;
        c) cpus=$OPTARG ;;
        f) filter=$OPTARG ;;
        b) bin=$OPTARG ;;
        S) strict=1 ;;
        *) sed -n '2,20p' "$0"; exit 2 ;;
    esac
done

logs=$(mktemp -d /tmp/coffer-soak.XXXXXX)
echo "soak: logs in $logs"
if [ -z "$bin" ]; then
    bin=$logs/bin
    mkdir -p "$bin"
    for product in CofferPackageTests.xctest coffer APIClientExample coffer-localdata-child coffer-store-writer; do
        [ -x ".build/debug/$product" ] || { echo "soak: .build/debug/$product is missing: build first"; exit 2; }
        cp ".build/debug/$product" "$bin/"
    done
fi
[ -x "$bin/CofferPackageTests.xctest" ] || { echo "soak: no $bin/CofferPackageTests.xctest"; exit 2; }
command -v gdb >/dev/null || echo "soak: gdb is missing: a hang will be reported without stacks"

load_pids=()
test_pid=""
descendants() {
    local child
    for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
        echo "$child"
        descendants "$child"
    done
}
# The test process and everything under it: Foundation's Process puts each child in a process group of its own,
# so killing the test's group would leave a `coffer serve` behind.
stop_tree() {
    # shellcheck disable=SC2046
    kill -KILL "$1" $(descendants "$1") 2>/dev/null || true
}
cleanup() {
    if [ -n "$test_pid" ]; then stop_tree "$test_pid"; fi
    for pid in "${load_pids[@]}"; do kill -- "$pid" 2>/dev/null || true; done
    for pid in "${load_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# With -c, the load shares the test's CPUs only, and leaves the others to whoever else uses the machine.
pin=()
[ -n "$cpus" ] && pin=(taskset -c "$cpus")
if [ "$hogs" -gt 0 ]; then
    # Bounded: the load ends by itself after the longest the soak can take, should this script die uncleanly.
    load_limit=$((runs * (limit + 30)))
    if command -v stress-ng >/dev/null; then
        "${pin[@]}" stress-ng --cpu "$hogs" --timeout "$load_limit" --quiet &
        load_pids+=($!)
    else
        for _ in $(seq "$hogs"); do
            "${pin[@]}" timeout "$load_limit" sh -c 'yes >/dev/null' &
            load_pids+=($!)
        done
    fi
fi

environment=(NO_COLOR=1)
[ "$strict" = 1 ] && environment+=(LIBDISPATCH_COOPERATIVE_POOL_STRICT=1)
echo "soak: $runs runs of --filter '$filter', $limit s each, $hogs CPU hogs${cpus:+, pinned to CPU $cpus}$(
    [ "$strict" = 1 ] && echo ', strict cooperative pool')"

passed=0 failed=0 hung=0
for run in $(seq "$runs"); do
    output=$logs/run-$run.txt
    start=$SECONDS
    env "${environment[@]}" "${pin[@]}" "$bin/CofferPackageTests.xctest" --testing-library swift-testing \
        --filter "$filter" >"$output" 2>&1 &
    test_pid=$!
    while kill -0 "$test_pid" 2>/dev/null && [ $((SECONDS - start)) -lt "$limit" ]; do sleep 1; done
    if kill -0 "$test_pid" 2>/dev/null; then
        hung=$((hung + 1))
        stacks=$logs/run-$run-stacks.txt
        echo "run $run: HUNG after $limit s (pid $test_pid); stacks in $stacks"
        {
            echo "== tests started and not finished"
            grep -E '^◇ Test ".*" started\.$' "$output" | sed -E 's/^◇ Test (".*") started\.$/\1/' | sort -u \
                >"$logs/started"
            grep -E '^[^ ]+ Test ".*" (with [0-9]+ test cases? )?(passed|failed|skipped)' "$output" \
                | sed -E 's/^[^ ]+ Test (".*")( with [0-9]+ test cases?)? (passed|failed|skipped).*$/\1/' | sort -u \
                >"$logs/ended"
            comm -23 "$logs/started" "$logs/ended"
            echo "== its last lines of output"
            tail -n 40 "$output"
            echo "== child processes"
            ps -o pid,stat,etime,args --ppid "$test_pid" || true
            echo "== its TCP sockets (ss -tanpi)"
            ss -tanpi 2>/dev/null | grep -A1 "pid=$test_pid," || true
            echo "== threads (gdb thread apply all bt)"
            timeout 120 gdb -p "$test_pid" -batch -ex "set pagination off" -ex "thread apply all bt" 2>&1 \
                | grep -vE '^\[New LWP|^warning: ' || true
        } >"$stacks"
        cat "$stacks"
        stop_tree "$test_pid"
        wait "$test_pid" 2>/dev/null || true
        test_pid=""
        continue
    fi
    status=0
    wait "$test_pid" || status=$?
    test_pid=""
    summary=$(grep -E '(✔|✘) Test run with' "$output" | tail -1 || true)
    if [ "$status" -eq 0 ] && [ -n "$summary" ]; then
        passed=$((passed + 1))
        echo "run $run: passed in $((SECONDS - start)) s"
    else
        failed=$((failed + 1))
        echo "run $run: FAILED (status $status) in $((SECONDS - start)) s: ${summary:-no summary line}"
        grep -E '✘' "$output" | head -20 || true
    fi
done

echo "soak: $passed passed, $((failed + hung)) failed ($hung hung)"
[ "$failed" -eq 0 ] && [ "$hung" -eq 0 ]
