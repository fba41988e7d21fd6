#!/usr/bin/env bash
# Loads a release build of `coffer serve` on loopback and prints each figure beside its ceiling, measured in the
# same run on the same cores:
#   1. POST issuer_data as fast as wrk can send (over many tags), alternated twice with a bare Hummingbird endpoint
#      on the same HTTP stack (the HTTP floor) and with the Python peer (Benchmarks/peers: FastAPI,
#      uvicorn with 2 workers, SQLite, pyca/cryptography; COFFER_LOAD_PEER=0 leaves it out);
#   2. issuer_data at a constant rate (Benchmarks/loadgen.py: open loop, latency from when each request was due), for
#      p50/p99. The target (Benchmarks/RESULTS.md) is a p99 at a fixed share of the openssl ceiling; the rate here is
#      that share of this machine's ceiling (COFFER_LOAD_RATE sets it);
#   3. the device callback (consume the session, bind, re-sign the pass) as fast as wrk can send, each request with
#      a session of its own;
#   4. `openssl speed -multi $(nproc) rsa2048`: one RSA signature per request is the ceiling of both endpoints;
#   5. the durable write alone (Benchmarks/write-floor.py: the group commit's statements from Python's sqlite3), so
#      that the figures show what signing, writing and answering HTTP leave to any server on this machine;
#   6. the server's own latency histogram (from /metrics), beside wrk's.
#
# Usage: bash Benchmarks/load-issuer-data.sh [seconds] [connections]
# Needs wrk, openssl and python3 (wrk and openssl installed with apt-get when missing). Exits non-zero on any
# non-2xx answer or socket error. Set COFFER_LOAD_TAGS to change how many tags the demo client gets (default 20000).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
connections=${2:-16}
tag_count=${COFFER_LOAD_TAGS:-20000}
cores=$(nproc)

if ! command -v wrk >/dev/null || ! command -v openssl >/dev/null; then
    apt-get update -qq && apt-get install -y -qq wrk openssl >/dev/null
fi

. Benchmarks/load-common.sh
rsa_signs=$(openssl_signs -multi "$cores")
rsa_signs_one=$(openssl_signs)
constant_rate=${COFFER_LOAD_RATE:-$(awk -v o="$rsa_signs" 'BEGIN { printf "%d", 1500 * o / 9348 }')}

echo "building release binaries…"
swift build -c release --product coffer >/dev/null
coffer=$(swift build -c release --show-bin-path)/coffer
swift build -c release --package-path Benchmarks --product hummingbird-baseline >/dev/null
baseline=$(swift build -c release --package-path Benchmarks --show-bin-path)/hummingbird-baseline

work=$(mktemp -d /tmp/coffer-load-XXXXXX)
server_pid=""
stop_server() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    server_pid=""
}
stop_peer() {
    if [ -n "${PEER_PID:-}" ]; then
        kill -CONT "$PEER_PID" $(pgrep -P "$PEER_PID" || true) 2>/dev/null || true
        kill "$PEER_PID" 2>/dev/null || true
        PEER_PID=""
    fi
}
trap 'stop_server; stop_peer; rm -rf "$work"' EXIT

# Starts "$@" in the background, logging to $work/server.log; sets server_pid and port.
start_server() {
    : >"$work/server.log"
    "$@" >"$work/server.log" 2>&1 &
    server_pid=$!
    port=""
    for _ in $(seq 1 300); do
        port=$(grep -o 'listening on 127\.0\.0\.1:[0-9]*' "$work/server.log" | head -1 | sed 's/.*://' || true)
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { echo "the server did not start:"; cat "$work/server.log"; exit 1; }
}

start_coffer() {
    # Production-like: every request logged (JSON, to a file), no issuance rate limit (this is the client's load).
    start_server "$coffer" serve --port 0 --data-dir "$work/data" --log-format json --issuance-rate-limit 0
}

echo "seeding $tag_count tags…"
"$coffer" admin seed-demo --json --tags "$tag_count" --data-dir "$work/data" >"$work/seed.json" 2>/dev/null
token=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["api_token"])' "$work/seed.json")
python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))["tag_ids"]))' "$work/seed.json" \
    >"$work/tags.txt"
first_tag=$(head -1 "$work/tags.txt")
authorization="Basic $(printf '%s:' "$token" | base64 -w0)"
path=/api/v2/in_app_provisioning

# issuer_data over every tag in turn (after a warm-up): prints "requests/s p50 p99", keeps wrk's report.
measure_issuer_data() {
    local base=$1 tags=$2 authorization=$3
    wrk -t2 -c"$connections" -d2s -s Benchmarks/issuer-data.lua "$base$path/issuer_data" -- "$tags" "$authorization" \
        >/dev/null
    wrk -t2 -c"$connections" -d"${seconds}s" --latency -s Benchmarks/issuer-data.lua "$base$path/issuer_data" \
        -- "$tags" "$authorization" >"$work/wrk.txt"
    wrk_figures "$work/wrk.txt"
}

# The peer's processes: uvicorn's supervisor and its workers.
peer_processes() { echo "$PEER_PID" $(pgrep -P "$PEER_PID" || true); }
if [ "${COFFER_LOAD_PEER:-1}" != 0 ]; then
    echo "starting the Python peer…"
    bash Benchmarks/peers/start-issuer-peer.sh "$work/peer" "$tag_count" >/dev/null
    # shellcheck disable=SC1091
    . "$work/peer/peer.env"
    peer_authorization="Basic $(printf '%s:' "$PEER_TOKEN" | base64 -w0)"
    # It sleeps, stopped, while the others are measured.
    kill -STOP $(peer_processes)
fi

declare -a coffer_runs=() bare_runs=() peer_runs=()
for round in 1 2; do
    start_server "$baseline" 0
    bare_runs+=("$(measure_issuer_data "http://127.0.0.1:$port" "$work/tags.txt" "$authorization")")
    stop_server

    if [ -n "${PEER_PID:-}" ]; then
        kill -CONT $(peer_processes)
        peer_runs+=("$(measure_issuer_data "http://127.0.0.1:$PEER_PORT" "$work/peer/peer-tags.txt" \
            "$peer_authorization")")
        kill -STOP $(peer_processes)
    fi

    start_coffer
    coffer_runs+=("$(measure_issuer_data "http://127.0.0.1:$port" "$work/tags.txt" "$authorization")")
    cp "$work/wrk.txt" "$work/wrk-issuer-data.txt"
    if [ "$round" = 2 ]; then break; fi
    stop_server
done
stop_peer

echo "issuer_data at a constant $constant_rate requests/s…"
python3 Benchmarks/loadgen.py rate "http://127.0.0.1:$port$path/issuer_data" --rate "$constant_rate" \
    --duration "$seconds" --connections "$connections" -H "Authorization: $authorization" \
    -H 'Content-Type: application/json' --body "{\"tag_id\":\"$first_tag\"}" | tee "$work/rate.txt"

echo "the durable write alone (Python's sqlite3, batches of $connections)…"
read -r write_floor_rate write_floor_us < <(python3 Benchmarks/write-floor.py "$work/data/coffer-wallet.sqlite" \
    --batch "$connections")

echo "issuing sessions for the callback load…"
callback_sessions=$((tag_count < 30000 ? tag_count : 30000))
head -n "$callback_sessions" "$work/tags.txt" >"$work/callback-tags.txt"
python3 Benchmarks/loadgen.py sessions "http://127.0.0.1:$port$path/issuer_data" --token "$token" \
    --tags "$work/callback-tags.txt" --out "$work/sessions.txt"
wrk -t2 -c"$connections" -d"${seconds}s" --latency -s Benchmarks/callback.lua "http://127.0.0.1:$port$path/callback" \
    -- 2 "$work/sessions.txt" >"$work/wrk-callback.txt"
callback=$(wrk_figures "$work/wrk-callback.txt")

echo
echo "The server's own latency histogram (GET /metrics):"
if [ -f Benchmarks/print-server-histogram.py ]; then
    python3 Benchmarks/print-server-histogram.py "http://127.0.0.1:$port" || true
fi
stop_server

echo
echo "wrk's report of the last issuer_data run:"
cat "$work/wrk-issuer-data.txt"
echo "wrk's report of the callback run:"
cat "$work/wrk-callback.txt"
echo
printf '%-44s %12s %10s %10s\n' "($connections connections, ${seconds}s, $cores cores)" "requests/s" "p50 ms" "p99 ms"
for round in 0 1; do
    read -r r p50 p99 <<<"${bare_runs[$round]}"
    printf '%-44s %12s %10s %10s\n' "bare Hummingbird endpoint, run $((round + 1))" "$r" "$p50" "$p99"
    if [ -n "${peer_runs[$round]:-}" ]; then
        read -r r p50 p99 <<<"${peer_runs[$round]}"
        printf '%-44s %12s %10s %10s\n' "Python peer issuer_data, run $((round + 1))" "$r" "$p50" "$p99"
    fi
    read -r r p50 p99 <<<"${coffer_runs[$round]}"
    printf '%-44s %12s %10s %10s\n' "coffer issuer_data, run $((round + 1))" "$r" "$p50" "$p99"
done
read -r callback_rate callback_p50 callback_p99 <<<"$callback"
printf '%-44s %12s %10s %10s\n' "coffer callback" "$callback_rate" "$callback_p50" "$callback_p99"
rate_line=$(grep '^result ' "$work/rate.txt")
rate_p50=$(echo "$rate_line" | tr ' ' '\n' | awk -F= '$1 == "p50_ms" { print $2 }')
rate_p99=$(echo "$rate_line" | tr ' ' '\n' | awk -F= '$1 == "p99_ms" { print $2 }')
rate_achieved=$(echo "$rate_line" | tr ' ' '\n' | awk -F= '$1 == "rate" { print $2 }')
printf '%-44s %12s %10s %10s\n' "coffer issuer_data at $constant_rate/s (open loop)" "$rate_achieved" "$rate_p50" "$rate_p99"
printf '%-44s %12s\n' "openssl speed -multi $cores rsa2048 (sign/s)" "$rsa_signs"
printf '%-44s %12s\n' "openssl speed rsa2048, one core (sign/s)" "$rsa_signs_one"
printf '%-44s %12s %10s\n' "durable write alone (issuances/s, CPU µs)" "$write_floor_rate" "$write_floor_us"
echo
coffer_best=$(printf '%s\n' "${coffer_runs[@]}" | awk '{ print $1 }' | sort -g | tail -1)
bare_best=$(printf '%s\n' "${bare_runs[@]}" | awk '{ print $1 }' | sort -g | tail -1)
if [ "${#peer_runs[@]}" -gt 0 ]; then
    peer_best=$(printf '%s\n' "${peer_runs[@]}" | awk '{ print $1 }' | sort -g | tail -1)
    echo "issuer_data / Python peer:          $(ratio "$coffer_best" "$peer_best")  (issue 45: >= 1.5)"
fi
# What any server is left with here: per request, one signature, the durable write and a bare HTTP answer (wrk's
# share included), on $cores cores, with nothing else.
awk -v c="$coffer_best" -v b="$bare_best" -v o="$rsa_signs" -v k="$callback_rate" -v n="$cores" \
    -v w="$write_floor_us" 'BEGIN {
    ceiling = n / (n / o + w / 1e6 + n / b)
    printf "issuer_data / bare endpoint:        %.3f\n", c / b
    printf "issuer_data / openssl sign/s:       %.3f  (issue 45: >= 0.6)\n", c / o
    printf "callback / openssl sign/s:          %.3f\n", k / o
    printf "sign + write + bare HTTP, nothing else: %.0f/s = %.3f of openssl sign/s; issuer_data reaches %.3f of it\n",
        ceiling, ceiling / o, c / ceiling
}'
echo "constant rate: $constant_rate requests/s = $(awk -v r="$constant_rate" -v o="$rsa_signs" 'BEGIN { printf "%.3f", r / o }') of openssl -multi (target: 1500 / 9348 = 0.160), p99 ${rate_p99} ms (asked: <= 10 ms)"
