#!/usr/bin/env bash
# Issue 55's Google Wallet figures, through the real path (Benchmarks/Sources/google-event-change): N event tickets
# (10,000 by default) written to a GoogleWalletStandIn that answers 429 past its per-account rate, then
#   1. an event-wide change (every ticket's kick-off moves): the goal is one class write and no object write;
#   2. a per-pass change (every ticket's seat): the goal is no 429 and at least 0.9 of the configured rate.
#
# Usage: bash Benchmarks/google-wallet-writes.sh [passes (10000)] [rate per second (100)]
# Exits non-zero when a goal is missed.
set -euo pipefail
cd "$(dirname "$0")/.."
passes=${1:-10000}
rate=${2:-100}

log=$(mktemp /tmp/coffer-build-XXXXXX)
echo "building google-event-change (release)…"
swift build -c release --package-path Benchmarks --product google-event-change >"$log" 2>&1 \
    || { grep -E "error:" "$log" | sort -u | head -20; exit 1; }
binary=$(swift build -c release --package-path Benchmarks --show-bin-path)/google-event-change
out=$(mktemp /tmp/coffer-google-XXXXXX)
"$binary" "$passes" "$rate" | tee "$out"

value() { awk -v key="$1" '$1 == key { print $2 }' "$out"; }
failed=0
[ "$(value event_change_class_writes)" = 1 ] || { echo "FAIL: the event-wide change was not one class write"; failed=1; }
[ "$(value event_change_object_writes)" = 0 ] || { echo "FAIL: the event-wide change wrote objects"; failed=1; }
[ "$(value per_pass_429)" = 0 ] || { echo "FAIL: the stand-in answered 429"; failed=1; }
awk -v ratio="$(value per_pass_ratio)" 'BEGIN { exit !(ratio >= 0.9) }' \
    || { echo "FAIL: per-pass writes below 0.9 of the configured rate"; failed=1; }
[ "$failed" = 0 ] && echo "issue 55's goals met"
exit "$failed"
