#!/usr/bin/env bash
# Prints what the access audit with its default sinks (log at info, file buffered, metrics) costs a 64 B read through
# SecretsStore over the encrypted file store, as a ratio to plain reads in the same interleaved rounds, beside the
# control (plain against plain), and checks that no event was lost. The goal is a ratio of at least 0.90.
# Usage: bash Benchmarks/compare-audit.sh [scratch-directory on the disk to measure] [rounds (40)] [seconds per turn (1)]
set -euo pipefail
cd "$(dirname "$0")"
scratch=${1:-$(pwd)/.build}
mkdir -p "$scratch"

flock /tmp/coffer-build.lock swift build -c release --product audit-baseline >/tmp/audit-baseline-build.log 2>&1 ||
    { grep -E "error" /tmp/audit-baseline-build.log >&2; exit 1; }
status=0
results=$("$(swift build -c release --show-bin-path)/audit-baseline" "$scratch" "${2:-40}" "${3:-1}") || status=$?
echo "$results"
echo "$results" | awk '$1 == "goal-ratio" { goal = $2 } $1 == "control-ratio" { control = $2 } END {
    printf "\ngoal: ratio >= 0.90: %.3f (%s; control %.3f)\n", goal, (goal >= 0.90) ? "met" : "NOT met", control }'
exit "$status"
