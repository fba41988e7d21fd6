#!/usr/bin/env bash
# Prints, from one run on this machine, what LocalData's StorageRouter costs over the stores it routes to: a
# 64 B value read and written through the router vs FileBackend directly, and an encrypted value read from
# defaults through the router vs a bare UserDefaults read.
# Usage: bash Benchmarks/compare-localdata.sh [scratch-directory on the disk to measure]
set -euo pipefail
cd "$(dirname "$0")"
scratch=${1:-$(pwd)/.build}
mkdir -p "$scratch"

swift build -c release --product localdata-baseline >/dev/null
results=$(swift run -c release --skip-build localdata-baseline "$scratch")
echo "$results"
value() { echo "$results" | awk -v key="$1" '$1 == key { print $2 }'; }
awk -v rr="$(value router-file-read-per-second)" -v br="$(value backend-file-read-per-second)" \
    -v ro="$(value router-file-read-off-main-per-second)" \
    -v rw="$(value router-file-write-per-second)" -v bw="$(value backend-file-write-per-second)" \
    -v rs="$(value router-sealed-defaults-read-per-second)" -v dr="$(value defaults-read-per-second)" 'BEGIN {
    printf "ratio router read / FileBackend read (64 B):          %.2f  (%.0f/s vs %.0f/s)\n", rr / br, rr, br
    printf "ratio same, called off the main actor:              %.2f  (%.0f/s)\n", ro / br, ro
    printf "ratio router durable write / FileBackend write:      %.2f  (%.0f/s vs %.0f/s)\n", rw / bw, rw, bw
    printf "ratio router sealed defaults read / defaults read:   %.2f  (%.0f/s vs %.0f/s)\n", rs / dr, rs, dr
}'
