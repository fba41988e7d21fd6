#!/usr/bin/env bash
# Prints, from one run on this machine, Coffer's Secret Service read and write rates and the ratio of a warm
# Coffer read to libsecret's own lookup of the same item over the same connection (the D-Bus round trip is the
# floor). Starts its own D-Bus session and gnome-keyring (as .ci/run does for the tests).
# Usage: bash Benchmarks/compare-secret-service.sh
# Needs: dbus, gnome-keyring, libsecret-1-0, libglib2.0-bin (installed with apt-get when missing).
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
    apt-get update -qq && apt-get install -y -qq dbus gnome-keyring libsecret-1-0 libglib2.0-bin >/dev/null
fi
swift build -c release --product secret-service-baseline >/dev/null
binary=$(swift build -c release --show-bin-path)/secret-service-baseline
results=$(dbus-run-session -- sh ../.ci/secret-service.sh "$binary" 2>/dev/null)
echo "$results"
value() { echo "$results" | awk -v key="$1" '$1 == key { print $2 }'; }
awk -v reads="$(value coffer-read-per-second)" -v lookups="$(value libsecret-lookup-per-second)" \
    -v writes="$(value coffer-write-per-second)" 'BEGIN {
    printf "ratio warm Coffer read / raw libsecret lookup: %.2f  (%.0f/s vs %.0f/s; %.0f us vs %.0f us)\n", reads / lookups, reads, lookups, 1e6 / reads, 1e6 / lookups
    printf "Coffer write: %.0f/s (%.0f us)\n", writes, 1e6 / writes
}'
