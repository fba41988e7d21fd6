#!/usr/bin/env bash
# Loads a release build of `coffer serve` on loopback and prints each figure beside its ceiling, measured in the
# same run on the same cores:
#   1. POST issuer_data as fast as wrk can send (over many tags), alternated twice with a bare Hummingbird endpoint
#      on the same HTTP stack (the HTTP floor);
#   2. issuer_data at a constant rate (Benchmarks/loadgen.py: open loop, latency from when each request was due), for
#      p50/p99. Issue 16 asks for p99 ≤ 10 ms at 1,500 requests/s on a machine whose `openssl speed -multi 2 rsa2048`
#      made 9,348 signatures/s; the rate here is the same share of this machine's ceiling (COFFER_LOAD_RATE sets it);
#   3. the device callback (consume the session, bind, re-sign the pass) as fast as wrk can send, each request with
#      a session of its own;
#   4. `openssl speed -multi $(nproc) rsa2048`: one RSA signature per request is the ceiling of both endpoints;
#   5. the server's own latency histogram (from /metrics), beside wrk's.
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

# openssl prints "rsa 2048 bits 0.000573s 0.000017s 1745.2 58823.5" (sign/s is the second-to-last column).
openssl_signs() { openssl speed "$@" -seconds 5 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ { print $(NF-1) }' | tail -1; }
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
trap 'stop_server; rm -rf "$work"' EXIT

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

# issuer_data over every tag in turn; each wrk thread starts at its own place in the list.
cat >"$work/issuer-data.lua" <<LUA
local counter = 0
function setup(thread)
    counter = counter + 1
    thread:set("offset", counter * 7919)
end
function init(args)
    tags = {}
    for line in io.lines("$work/tags.txt") do tags[#tags + 1] = line end
    index = offset or 0
end
local headers = { ["Content-Type"] = "application/json", ["Authorization"] = "$authorization" }
function request()
    index = index + 1
    return wrk.format("POST", "$path/issuer_data", headers, '{"tag_id":"' .. tags[index % #tags + 1] .. '"}')
end
LUA
# The callback, each request with a session of its own; a thread whose sessions are used up stops.
cat >"$work/callback.lua" <<LUA
local counter = 0
function setup(thread)
    counter = counter + 1
    thread:set("id", counter)
end
function init(args)
    local threads = tonumber(args[1])
    sessions = {}
    local line_number = 0
    for line in io.lines("$work/sessions.txt") do
        if line_number % threads == id - 1 then sessions[#sessions + 1] = line end
        line_number = line_number + 1
    end
    index = 0
end
local headers = { ["Content-Type"] = "application/json" }
local body = '{"issuerBindingData":"0a0b0c0d","keyHash":"c0ffee00"}'
function request()
    index = index + 1
    if index > #sessions then
        wrk.thread:stop()
        return wrk.format("GET", "/health")
    end
    return wrk.format("POST", "$path/callback?sessionIdentifier=" .. sessions[index], headers, body)
end
LUA

to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'; }
# Runs wrk; prints its report to $work/wrk.txt and "requests/s p50 p99" on standard output; fails on errors.
run_wrk() {
    local script=$1 url=$2 duration=$3
    shift 3
    wrk -t2 -c"$connections" -d"${duration}s" --latency -s "$script" "$url" -- "$@" >"$work/wrk.txt"
    local non2xx socket_errors
    non2xx=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' "$work/wrk.txt")
    socket_errors=$(awk '/Socket errors:/ { print }' "$work/wrk.txt")
    if [ -n "$non2xx" ] && [ "$non2xx" != "0" ]; then cat "$work/wrk.txt"; echo "FAIL: non-2xx answers" >&2; exit 1; fi
    if [ -n "$socket_errors" ]; then cat "$work/wrk.txt"; echo "FAIL: $socket_errors" >&2; exit 1; fi
    echo "$(awk '/^Requests\/sec:/ { print $2 }' "$work/wrk.txt")" \
        "$(to_ms "$(awk '$1 == "50%" { print $2 }' "$work/wrk.txt")")" \
        "$(to_ms "$(awk '$1 == "99%" { print $2 }' "$work/wrk.txt")")"
}

declare -a coffer_runs=() bare_runs=()
for round in 1 2; do
    start_server "$baseline" 0
    wrk -t2 -c"$connections" -d2s -s "$work/issuer-data.lua" "http://127.0.0.1:$port$path/issuer_data" >/dev/null
    bare_runs+=("$(run_wrk "$work/issuer-data.lua" "http://127.0.0.1:$port$path/issuer_data" "$seconds")")
    stop_server

    start_coffer
    # Warm up (identities, connections), then measure.
    curl -fsS -o /dev/null -H "Authorization: $authorization" -H 'Content-Type: application/json' \
        -d "{\"tag_id\":\"$first_tag\"}" "http://127.0.0.1:$port$path/issuer_data"
    wrk -t2 -c"$connections" -d2s -s "$work/issuer-data.lua" "http://127.0.0.1:$port$path/issuer_data" >/dev/null
    coffer_runs+=("$(run_wrk "$work/issuer-data.lua" "http://127.0.0.1:$port$path/issuer_data" "$seconds")")
    cp "$work/wrk.txt" "$work/wrk-issuer-data.txt"
    if [ "$round" = 2 ]; then break; fi
    stop_server
done

echo "issuer_data at a constant $constant_rate requests/s…"
python3 Benchmarks/loadgen.py rate "http://127.0.0.1:$port$path/issuer_data" --rate "$constant_rate" \
    --duration "$seconds" --connections "$connections" -H "Authorization: $authorization" \
    -H 'Content-Type: application/json' --body "{\"tag_id\":\"$first_tag\"}" | tee "$work/rate.txt"

echo "issuing sessions for the callback load…"
callback_sessions=$((tag_count < 30000 ? tag_count : 30000))
head -n "$callback_sessions" "$work/tags.txt" >"$work/callback-tags.txt"
python3 Benchmarks/loadgen.py sessions "http://127.0.0.1:$port$path/issuer_data" --token "$token" \
    --tags "$work/callback-tags.txt" --out "$work/sessions.txt"
callback=$(run_wrk "$work/callback.lua" "http://127.0.0.1:$port$path/callback" "$seconds" 2)
cp "$work/wrk.txt" "$work/wrk-callback.txt"

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
echo
coffer_best=$(printf '%s\n' "${coffer_runs[@]}" | awk '{ print $1 }' | sort -g | tail -1)
bare_best=$(printf '%s\n' "${bare_runs[@]}" | awk '{ print $1 }' | sort -g | tail -1)
awk -v c="$coffer_best" -v b="$bare_best" -v o="$rsa_signs" -v k="$callback_rate" 'BEGIN {
    printf "issuer_data / bare endpoint:        %.3f\n", c / b
    printf "issuer_data / openssl sign/s:       %.3f\n", c / o
    printf "callback / openssl sign/s:          %.3f\n", k / o
    printf "(issue 16 asks, on its machine: issuer_data >= %.3f and callback >= %.3f of openssl -multi)\n", 3600 / 9348, 1500 / 9348
}'
echo "constant rate: $constant_rate requests/s = $(awk -v r="$constant_rate" -v o="$rsa_signs" 'BEGIN { printf "%.3f", r / o }') of openssl -multi (issue 16: 1500 / 9348 = 0.160), p99 ${rate_p99} ms (asked: <= 10 ms)"
