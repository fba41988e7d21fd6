#!/usr/bin/env bash
# Drives POST /api/v2/in_app_provisioning/issuer_data with wrk against a release build of `coffer serve` on
# loopback, and compares its requests/s with what one RSA-2048 signature per request allows on this machine
# (`openssl speed -multi $(nproc) rsa2048`, measured in the same run).
#
# Usage: bash Benchmarks/load-issuer-data.sh [seconds] [connections]
# Needs wrk and openssl (installed with apt-get when missing). Exits non-zero on any non-2xx answer or socket error.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
connections=${2:-16}

if ! command -v wrk >/dev/null || ! command -v openssl >/dev/null; then
    apt-get update -qq && apt-get install -y -qq wrk openssl >/dev/null
fi

swift build -c release --product coffer >/dev/null
coffer=$(swift build -c release --show-bin-path)/coffer
work=$(mktemp -d /tmp/coffer-load-XXXXXX)
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# A zero-configuration server on a free port, logging every request to a file as it would in production.
"$coffer" serve --port 0 --data-dir "$work/data" --log-format json >"$work/server.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 1 200); do
    port=$(grep -o 'listening on 127\.0\.0\.1:[0-9]*' "$work/server.log" | head -1 | sed 's/.*://' || true)
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { echo "the server did not start:"; cat "$work/server.log"; exit 1; }

seed=$("$coffer" admin seed-demo --json --data-dir "$work/data" 2>/dev/null)
token=$(echo "$seed" | python3 -c 'import json, sys; print(json.load(sys.stdin)["api_token"])')
tag=$(echo "$seed" | python3 -c 'import json, sys; print(json.load(sys.stdin)["tag_id"])')
authorization="Basic $(printf '%s:' "$token" | base64 -w0)"

cat >"$work/issuer-data.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"tag_id":"$tag"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "$authorization"
LUA

url="http://127.0.0.1:$port/api/v2/in_app_provisioning/issuer_data"
curl -fsS -o /dev/null -H "Authorization: $authorization" -H 'Content-Type: application/json' \
    -d "{\"tag_id\":\"$tag\"}" "$url"
# Warm up (identity cache, connection pool), then measure.
wrk -t2 -c"$connections" -d3s -s "$work/issuer-data.lua" "$url" >/dev/null
report=$(wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$work/issuer-data.lua" "$url")
echo "$report"

kill "$server_pid"
wait "$server_pid" || true
server_pid=""

# openssl prints "rsa 2048 bits 0.000573s 0.000017s 1745.2 58823.5" (sign/s is the second-to-last column).
cores=$(nproc)
rsa_signs=$(openssl speed -multi "$cores" -seconds 5 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ { print $(NF-1) }' | tail -1)
# The same without OpenSSL's AVX-512 IFMA RSA code, which BoringSSL (inside swift-crypto) does not have.
rsa_signs_plain=$(OPENSSL_ia32cap=":~0x200000" openssl speed -multi "$cores" -seconds 5 rsa2048 2>/dev/null \
    | awk '/^rsa 2048 bits/ { print $(NF-1) }' | tail -1)

to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'; }
requests=$(echo "$report" | awk '/^Requests\/sec:/ { print $2 }')
p50=$(to_ms "$(echo "$report" | awk '$1 == "50%" { print $2 }')")
p99=$(to_ms "$(echo "$report" | awk '$1 == "99%" { print $2 }')")
non2xx=$(echo "$report" | awk '/Non-2xx or 3xx responses:/ { print $NF }')
socket_errors=$(echo "$report" | awk '/Socket errors:/ { print }')
echo
echo "issuer_data requests/s:                 $requests  ($connections connections, ${seconds}s, wrk on the same $cores cores)"
echo "latency p50 / p99:                      ${p50} ms / ${p99} ms"
echo "openssl rsa2048 sign/s (-multi $cores):     $rsa_signs  (without AVX-512 IFMA: $rsa_signs_plain)"
awk -v r="$requests" -v o="$rsa_signs" -v p="$rsa_signs_plain" 'BEGIN {
    printf "ratio requests/s / openssl sign/s:      %.2f  (%.2f of the same without AVX-512 IFMA)\n", r / o, r / p }'
echo "non-2xx responses:                      ${non2xx:-0}"
if [ -n "${non2xx}" ] && [ "${non2xx}" != "0" ]; then echo "FAIL: non-2xx responses"; exit 1; fi
if ! awk -v r="${requests:-0}" 'BEGIN { exit !(r > 0) }'; then echo "FAIL: no request completed"; exit 1; fi
if [ -n "$socket_errors" ]; then echo "FAIL: $socket_errors"; exit 1; fi
