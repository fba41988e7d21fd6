#!/usr/bin/env bash
# Issue 57's figure: one bulk change of N passes (50,000 by default), from the call until the last device holds the
# new pass, beside what N RSA signatures alone take on this machine (`openssl speed -multi <cores>`, in the same run):
# every changed pass must be signed once, when its device fetches it.
#
#   PostgreSQL: two `coffer serve` replicas on a throwaway cluster; SQLite: one `coffer serve`.
#   Each pass is registered on one simulated device (Benchmarks/Sources/bulk-change), which on its push from the
#   APNs stand-in asks for its changed serial numbers and fetches the pass, the replicas taken in turn.
#
# Usage: bash Benchmarks/load-bulk-change.sh [passes] [postgres|sqlite|both]
# Needs openssl, and PostgreSQL for the replicas (installed with apt-get when missing). Prints, per engine,
# "change to last device / signatures alone: R".
set -euo pipefail
cd "$(dirname "$0")/.."
passes=${1:-50000}
engines=${2:-both}
cores=$(nproc)

if ! command -v openssl >/dev/null || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq openssl postgresql >/dev/null
fi
. Benchmarks/load-common.sh

echo "building release binaries…"
release_build --product coffer
coffer=$(swift build -c release --show-bin-path)/coffer
release_build --package-path Benchmarks --product bulk-change
devices=$(swift build -c release --package-path Benchmarks --show-bin-path)/bulk-change

work=$(mktemp -d /tmp/coffer-bulk-XXXXXX)
chmod 755 "$work"
pids=()
pg_port=54339
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    [ -d "$work/pg/data" ] && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The APNs provider key the replicas sign tokens with, and the stand-in checks.
openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out "$work/apns.p8"
export COFFER_APNS_KEY_FILE="$work/apns.p8" COFFER_APNS_KEY_ID=BENCHKEY01 COFFER_APNS_TEAM_ID=BENCHTEAM1
export COFFER_PASSPHRASE=bulk-change-benchmark COFFER_CHANGE_RATE_LIMIT=0 COFFER_ISSUANCE_RATE_LIMIT=0

# Runs one measurement on the database at $1 with $2 replicas; prints the device program's figures.
measure() {
    local database=$1 replicas=$2 dir=$work/$3
    mkdir -p "$dir"
    echo "seeding $passes passes…"
    DATABASE_URL=$database "$coffer" admin seed-demo --tags "$passes" --json --data-dir "$dir/a" \
        >"$dir/seed.json" 2>/dev/null
    local token urls="" ports=()
    token=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["api_token"])' "$dir/seed.json")
    for index in $(seq 1 "$replicas"); do ports+=("$(free_port)"); done
    for port in "${ports[@]}"; do urls="$urls${urls:+,}http://127.0.0.1:$port"; done
    "$devices" --database "$database" --replicas "$urls" --token "$token" --tags "$dir/seed.json" \
        --apns-key "$work/apns.p8" --apns-key-id BENCHKEY01 --apns-team-id BENCHTEAM1 \
        --root-out "$dir/root.pem" >"$dir/devices.out" 2>"$dir/devices.err" &
    local devices_pid=$!
    pids+=("$devices_pid")
    local stand_in=""
    for _ in $(seq 1 300); do
        stand_in=$(sed -n 's/^stand-in //p' "$dir/devices.out")
        [ -n "$stand_in" ] && break
        sleep 0.1
    done
    [ -n "$stand_in" ] || { cat "$dir/devices.err"; echo "the devices did not start"; exit 1; }
    local index=0
    for port in "${ports[@]}"; do
        index=$((index + 1))
        DATABASE_URL=$database COFFER_APNS_STAND_IN=$stand_in COFFER_APNS_STAND_IN_ROOT=$dir/root.pem \
            "$coffer" serve --port "$port" --data-dir "$dir/r$index" --public-url https://wallet.example.com \
            --log-format json >"$dir/serve$index.log" 2>&1 &
        pids+=("$!")
    done
    wait "$devices_pid" || { cat "$dir/devices.err"; tail -n 20 "$dir"/serve*.log; exit 1; }
    # COFFER_BULK_LOGS=<folder> keeps the servers' logs for a look at where the time went.
    if [ -n "${COFFER_BULK_LOGS:-}" ]; then mkdir -p "$COFFER_BULK_LOGS/$3" && cp "$dir"/*.log "$dir/devices.err" "$COFFER_BULK_LOGS/$3/"; fi
    cat "$dir/devices.out" | grep -v '^stand-in'
    for pid in "${pids[@]:1}"; do kill "$pid" 2>/dev/null || true; done
}

report() {
    local label=$1 dir=$work/$2
    local seconds signs floor
    seconds=$(sed -n 's/^change to last device //p' "$dir/devices.out")
    signs=$(openssl_signs -multi "$cores")
    floor=$(awk -v n="$passes" -v r="$signs" 'BEGIN { printf "%.2f", n / r }')
    echo "$label: change to last device ${seconds} s; openssl speed -multi $cores: $signs signatures/s, so $passes signatures alone take $floor s"
    echo "$label: change to last device / signatures alone: $(ratio "$seconds" "$floor")"
}

if [ "$engines" = both ] || [ "$engines" = postgres ]; then
    PGROOT=$work/pg PGPORT=$pg_port sh .ci/postgres.sh >/dev/null
    PGPASSWORD=ci-pass psql -h 127.0.0.1 -p "$pg_port" -U postgres -qc "CREATE DATABASE coffer_bulk"
    measure "postgres://postgres:ci-pass@127.0.0.1:$pg_port/coffer_bulk?sslmode=disable" 2 postgres
    report "PostgreSQL, 2 replicas" postgres
fi
if [ "$engines" = both ] || [ "$engines" = sqlite ]; then
    mkdir -p "$work/sqlite/r1"
    measure "sqlite://$work/sqlite/r1/wallet.sqlite" 1 sqlite
    report "SQLite, 1 server" sqlite
fi
