#!/usr/bin/env bash
# Fetches that cost no signature: loads a release build of `coffer serve` on loopback and prints each figure beside
# its ceiling, measured in the same run on the same cores:
#   1. GET /passkit/v1/passes/{passType}/{serial} of a pass that has not changed since it was signed (the kept
#      archive), as fast as wrk sends, with the pass's own ApplePass token;
#   2. the same with If-Modified-Since of its Last-Modified (304, no archive read), and the same 304 of an order
#      (GET /orders/v1/orders/{orderType}/{orderID}, AppleOrder token; its 200s are limited per order by design);
#   3. a bare Hummingbird endpoint answering the same two requests with a body of the pass's size (the HTTP floor);
#   4. `openssl speed rsa2048` (-multi: what every fetch would cost if each signed);
#   5. the fan-out (Benchmarks/Sources/pass-fanout): one change to a pass registered on 10,000 devices until the last
#      push reaches an APNs stand-in, beside the same 10,000 pushes sent straight through the APNs client;
#   6. the open-source peer, django-walletpass 5.0.1 under gunicorn (Benchmarks/peers/start-walletpass-peer.sh), serving
#      the same pass bytes under the same token (COFFER_LOAD_PEER=0 leaves it out).
# Goals (issue 45, this machine): the 200 at least 0.5 of the bare 200 and 3 times the peer's, the 304 at least 0.6 of
# the bare 304, both with a p99 within 5 ms, and the fan-out within 1.5 times the pushes sent straight.
#
# With `postgres N` or `sqlite N` after them (issue 57), the many-passes mode instead: N passes (2,000 by default) on
# that database, each request a random one of them with its own token (Benchmarks/fetch-many.lua), as devices fetch
# their own passes after a fan-out; the 200 and the 304 beside the bare endpoint's, and issue 57's goals (304 at least
# 0.35 and 200 at least 0.3 of the bare answer, p99 within 10 ms).
#
# Usage: bash Benchmarks/load-pass-fetch.sh [seconds] [connections] [postgres|sqlite [passes]]
# Needs wrk, openssl, unzip and python3 (installed with apt-get when missing; the peer's packages from PyPI). Exits
# non-zero on any non-2xx/3xx answer or socket error.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
connections=${2:-16}
engine=${3:-}
passes=${4:-2000}
cores=$(nproc)

if ! command -v wrk >/dev/null || ! command -v openssl >/dev/null || ! command -v unzip >/dev/null ||
    { [ "$engine" = postgres ] && ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; }; then
    apt-get update -qq && apt-get install -y -qq wrk openssl unzip postgresql >/dev/null
fi

. Benchmarks/load-common.sh
rsa_signs=$(openssl_signs -multi "$cores")

echo "building release binaries…"
release_build --product coffer
coffer=$(swift build -c release --show-bin-path)/coffer
release_build --package-path Benchmarks --product hummingbird-baseline
release_build --package-path Benchmarks --product pass-fanout
baseline=$(swift build -c release --package-path Benchmarks --show-bin-path)/hummingbird-baseline
fanout=$(swift build -c release --package-path Benchmarks --show-bin-path)/pass-fanout

work=$(mktemp -d /tmp/coffer-fetch-XXXXXX)
server_pid=""
stop_server() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    server_pid=""
}
# The peer's processes (gunicorn's arbiter and its workers): they sleep, stopped, while the others are measured.
peer_processes() { echo "$(cat "$work/peer/gunicorn.pid")" $(pgrep -P "$(cat "$work/peer/gunicorn.pid")" || true); }
stop_peer() {
    [ -f "$work/peer/gunicorn.pid" ] || return 0
    kill -CONT $(peer_processes) 2>/dev/null || true
    bash Benchmarks/peers/stop-walletpass-peer.sh "$work/peer" || true
}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
stop_postgres() {
    [ -d "$work/pg/data" ] || return 0
    runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg/data" -m fast -w stop >/dev/null 2>&1 || true
}
trap 'stop_server; stop_peer; stop_postgres; rm -rf "$work"' EXIT

# Starts "$@" in the background, logging to $work/server.log; waits until it listens.
start_server() {
    : >"$work/server.log"
    "$@" >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 300); do
        grep -q 'listening on 127\.0\.0\.1:' "$work/server.log" && return 0
        sleep 0.1
    done
    echo "the server did not start:"; cat "$work/server.log"; exit 1
}

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"

# The best throughput of measure's figures, and the p99 of the run that had it.
best() { printf '%s\n' "$@" | awk '{ print $1 }' | sort -g | tail -1; }
p99_of_best() { printf '%s\n' "$@" | sort -g -k1,1 | tail -1 | awk '{ print $3 }'; }

# wrk over $1 with extra headers: prints "requests/s p50_ms p99_ms".
measure() {
    local url=$1
    shift
    wrk -t2 -c"$connections" -d2s "$url" "$@" >/dev/null
    wrk -t2 -c"$connections" -d"${seconds}s" --latency "$url" "$@" >"$work/wrk.txt"
    wrk_figures "$work/wrk.txt"
}

if [ -n "$engine" ]; then
    case $engine in
    postgres)
        chmod 755 "$work"
        PGROOT=$work/pg PGPORT=54349 sh .ci/postgres.sh >/dev/null
        PGPASSWORD=ci-pass psql -h 127.0.0.1 -p 54349 -U postgres -qc "CREATE DATABASE coffer_fetch"
        export DATABASE_URL="postgres://postgres:ci-pass@127.0.0.1:54349/coffer_fetch?sslmode=disable"
        export COFFER_PASSPHRASE=fetch-benchmark ;;
    sqlite) export DATABASE_URL="sqlite://$work/data/wallet.sqlite" ;;
    *) echo "usage: load-pass-fetch.sh [seconds] [connections] [postgres|sqlite [passes]]"; exit 2 ;;
    esac
    # Learning each pass's token downloads it once: no API limits for that.
    export COFFER_ISSUANCE_RATE_LIMIT=0 COFFER_CHANGE_RATE_LIMIT=0
    echo "seeding $passes passes on $engine…"
    mkdir -p "$work/data"
    "$coffer" admin seed-demo --tags "$passes" --json --data-dir "$work/data" >"$work/seed.json" 2>/dev/null
    start_server "$coffer" serve --port "$port" --data-dir "$work/data" --log-format json \
        --public-url "https://localhost:$port"
    # Each pass once through the management API (its token, as a device holds it), then its Last-Modified.
    pkpass_bytes=$(python3 - "$base" "$work/seed.json" "$work/passes.tsv" <<'PY'
import base64, io, json, sys, zipfile
from concurrent.futures import ThreadPoolExecutor
from urllib.error import HTTPError
from urllib.request import Request, urlopen
base, seed, out = sys.argv[1:4]
seed = json.load(open(seed))
basic = "Basic " + base64.b64encode((seed["api_token"] + ":").encode()).decode()
def learn(tag):
    with urlopen(Request(f"{base}/api/v2/passes/{tag}/pkpass", headers={"Authorization": basic})) as answer:
        archive = answer.read()
    pass_json = json.loads(zipfile.ZipFile(io.BytesIO(archive)).read("pass.json"))
    path = f"/passkit/v1/passes/{pass_json['passTypeIdentifier']}/{pass_json['serialNumber']}"
    token = pass_json["authenticationToken"]
    with urlopen(Request(base + path, headers={"Authorization": "ApplePass " + token})) as answer:
        return f"{path}\t{token}\t{answer.headers['Last-Modified']}\n", len(archive)
def learn_or_say(tag):
    try:
        return learn(tag)
    except HTTPError as error:
        sys.exit(f"{error.url}: {error.code} {error.read().decode(errors='replace')}")
with ThreadPoolExecutor(16) as pool:
    learned = list(pool.map(learn_or_say, seed["tag_ids"]))
open(out, "w").writelines(line for line, _ in learned)
print(learned[0][1])
PY
)
    many() { measure "$base/" -s Benchmarks/fetch-many.lua -- "$work/passes.tsv" "$1"; }
    declare -a many_200=() many_304=() bare_200=() bare_304=()
    for round in 1 2; do
        many_200+=("$(many 200)")
        many_304+=("$(many 304)")
        stop_server
        start_server "$baseline" "$port" "$pkpass_bytes"
        bare_200+=("$(many 200)")
        bare_304+=("$(many 304)")
        stop_server
        [ "$round" = 2 ] && break
        start_server "$coffer" serve --port "$port" --data-dir "$work/data" --log-format json \
            --public-url "https://localhost:$port"
    done
    echo
    printf '%-48s %12s %10s %10s\n' "($engine, $passes passes, $connections connections, ${seconds}s, $cores cores)" \
        "requests/s" "p50 ms" "p99 ms"
    for round in 0 1; do
        for row in "coffer fetch 200 (kept archive, $pkpass_bytes bytes)|${many_200[$round]}" \
            "coffer fetch 304|${many_304[$round]}" "bare Hummingbird 200|${bare_200[$round]}" \
            "bare Hummingbird 304|${bare_304[$round]}"; do
            read -r r p50 p99 <<<"${row#*|}"
            printf '%-48s %12s %10s %10s\n' "${row%%|*}, run $((round + 1))" "$r" "$p50" "$p99"
        done
    done
    c200=$(best "${many_200[@]}") c304=$(best "${many_304[@]}") b200=$(best "${bare_200[@]}") b304=$(best "${bare_304[@]}")
    echo
    echo "fetch 200 / bare endpoint:     $(ratio "$c200" "$b200")"
    echo "fetch 304 / bare endpoint:     $(ratio "$c304" "$b304")"
    awk -v a="$c200" -v b="$c304" -v ba="$b200" -v bb="$b304" -v pa="$(p99_of_best "${many_200[@]}")" \
        -v pb="$(p99_of_best "${many_304[@]}")" 'BEGIN {
        printf "goals: 200 >= 0.3 of bare: %s (%.3f); 304 >= 0.35 of bare: %s (%.3f)\n",
            (a >= 0.3 * ba ? "met" : "MISSED"), a / ba, (b >= 0.35 * bb ? "met" : "MISSED"), b / bb
        printf "       p99 <= 10 ms: 200 %s (%.2f ms), 304 %s (%.2f ms)\n",
            (pa <= 10 ? "met" : "MISSED"), pa, (pb <= 10 ? "met" : "MISSED"), pb }'
    exit 0
fi

echo "seeding a pass…"
"$coffer" admin seed-demo --orders --json --data-dir "$work/data" >"$work/seed.json" 2>/dev/null
token=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["api_token"])' "$work/seed.json")
tag=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["tag_id"])' "$work/seed.json")
# An https public URL, so that passes carry the web service and a token (nothing connects to it).
start_server "$coffer" serve --port "$port" --data-dir "$work/data" --log-format json \
    --public-url "https://localhost:$port"
curl -sf -u "$token:" "$base/api/v2/passes/$tag/pkpass" -o "$work/pass.pkpass"
read -r pass_type serial pass_token < <(unzip -p "$work/pass.pkpass" pass.json | python3 -c '
import json, sys
p = json.load(sys.stdin)
print(p["passTypeIdentifier"], p["serialNumber"], p["authenticationToken"])')
pkpass_bytes=$(stat -c %s "$work/pass.pkpass")
path="/passkit/v1/passes/$pass_type/$serial"
last_modified=$(curl -sf -D - -o /dev/null -H "Authorization: ApplePass $pass_token" "$base$path" |
    awk -F': ' 'tolower($1) == "last-modified" { sub(/\r$/, "", $2); print $2 }')
[ -n "$last_modified" ] || { echo "the fetch answered no Last-Modified"; exit 1; }
# An order under the development order type seed-demo shared with the client, and its 304.
curl -sf -u "$token:" -H 'Content-Type: application/json' "$base/api/v2/orders" -o "$work/order.json" -d '{"order":
    {"orderIdentifier":"BENCH-1","orderManagementURL":"https://shop.example.com/o/1",
     "merchant":{"displayName":"Bench","merchantIdentifier":"merchant.com.example","url":"https://shop.example.com"}}}'
read -r order_type order_id order_token < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["apple_pay_order_details"]
print(d["orderTypeIdentifier"], d["orderIdentifier"], d["authenticationToken"])' "$work/order.json")
order_path="/orders/v1/orders/$order_type/$order_id"
order_modified=$(curl -sf -D - -o /dev/null -H "Authorization: AppleOrder $order_token" "$base$order_path" |
    awk -F': ' 'tolower($1) == "last-modified" { sub(/\r$/, "", $2); print $2 }')
[ -n "$order_modified" ] || { echo "the order's fetch answered no Last-Modified"; exit 1; }

peer_path=""
if [ "${COFFER_LOAD_PEER:-1}" != 0 ]; then
    echo "starting django-walletpass…"
    peer_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    bash Benchmarks/peers/start-walletpass-peer.sh "$work/peer" "$work/pass.pkpass" "$pass_type" "$serial" \
        "$pass_token" "$peer_port" >/dev/null
    peer_base="http://127.0.0.1:$peer_port"
    peer_path="/passkit/v1/passes/$pass_type/$serial"
    peer_modified=$(curl -sf -D - -o /dev/null -H "Authorization: ApplePass $pass_token" "$peer_base$peer_path" |
        awk -F': ' 'tolower($1) == "last-modified" { sub(/\r$/, "", $2); print $2 }')
    kill -STOP $(peer_processes)
fi

declare -a coffer_200=() coffer_304=() order_304=() bare_200=() bare_304=() peer_200=() peer_304=()
for round in 1 2; do
    coffer_200+=("$(measure "$base$path" -H "Authorization: ApplePass $pass_token")")
    coffer_304+=("$(measure "$base$path" -H "Authorization: ApplePass $pass_token" \
        -H "If-Modified-Since: $last_modified")")
    order_304+=("$(measure "$base$order_path" -H "Authorization: AppleOrder $order_token" \
        -H "If-Modified-Since: $order_modified")")
    stop_server
    start_server "$baseline" "$port" "$pkpass_bytes"
    bare_200+=("$(measure "$base$path")")
    bare_304+=("$(measure "$base$path" -H "If-Modified-Since: $last_modified")")
    stop_server
    if [ -n "$peer_path" ]; then
        kill -CONT $(peer_processes)
        peer_200+=("$(measure "$peer_base$peer_path" -H "Authorization: ApplePass $pass_token")")
        peer_304+=("$(measure "$peer_base$peer_path" -H "Authorization: ApplePass $pass_token" \
            -H "If-Modified-Since: $peer_modified")")
        kill -STOP $(peer_processes)
    fi
    [ "$round" = 2 ] && break
    start_server "$coffer" serve --port "$port" --data-dir "$work/data" --log-format json \
        --public-url "https://localhost:$port"
done
stop_peer

echo "fan-out to ${COFFER_FANOUT_DEVICES:-10000} devices…"
"$fanout" "${COFFER_FANOUT_DEVICES:-10000}" >"$work/fanout.txt"
fanout_seconds=$(awk '$1 == "fan-out" { print $2 }' "$work/fanout.txt")
fanout_ceiling=$(awk '$1 == "ceiling" { print $2 }' "$work/fanout.txt")
fanout_refused=$(awk '$1 == "refused" { print $2 }' "$work/fanout.txt")
[ "$fanout_refused" = 0 ] || { cat "$work/fanout.txt"; echo "FAIL: the stand-in refused pushes"; exit 1; }

echo
printf '%-48s %12s %10s %10s\n' "($connections connections, ${seconds}s, $cores cores)" "requests/s" "p50 ms" "p99 ms"
for round in 0 1; do
    for row in "coffer fetch 200 (kept archive, $pkpass_bytes bytes)|${coffer_200[$round]}" \
        "coffer fetch 304|${coffer_304[$round]}" "coffer order fetch 304|${order_304[$round]}" \
        "bare Hummingbird 200|${bare_200[$round]}" \
        "bare Hummingbird 304|${bare_304[$round]}" \
        "django-walletpass 200|${peer_200[$round]:-}" "django-walletpass 304|${peer_304[$round]:-}"; do
        [ -n "${row#*|}" ] || continue
        read -r r p50 p99 <<<"${row#*|}"
        printf '%-48s %12s %10s %10s\n' "${row%%|*}, run $((round + 1))" "$r" "$p50" "$p99"
    done
done
printf '%-48s %12s\n' "openssl speed -multi $cores rsa2048 (sign/s)" "$rsa_signs"
printf '%-48s %12s s\n' "fan-out: change to last push, ${COFFER_FANOUT_DEVICES:-10000} devices" "$fanout_seconds"
printf '%-48s %12s s\n' "the same pushes straight through the APNs client" "$fanout_ceiling"
c200=$(best "${coffer_200[@]}")
c304=$(best "${coffer_304[@]}")
o304=$(best "${order_304[@]}")
b200=$(best "${bare_200[@]}")
b304=$(best "${bare_304[@]}")
c200_p99=$(p99_of_best "${coffer_200[@]}")
c304_p99=$(p99_of_best "${coffer_304[@]}")
echo
echo "fetch 200 / bare endpoint:     $(ratio "$c200" "$b200")"
echo "fetch 304 / bare endpoint:     $(ratio "$c304" "$b304")"
echo "order 304 / pass 304:          $(ratio "$o304" "$c304")"
echo "order 304 / bare endpoint:     $(ratio "$o304" "$b304")"
echo "fetch 200 / openssl sign/s:    $(ratio "$c200" "$rsa_signs")  (above 1: faster than signing could be)"
echo "fan-out / straight pushes:     $(ratio "$fanout_seconds" "$fanout_ceiling")"
p200=""
if [ -n "$peer_path" ]; then
    p200=$(best "${peer_200[@]}")
    echo "fetch 200 / django-walletpass: $(ratio "$c200" "$p200")"
    echo "fetch 304 / django-walletpass: $(ratio "$c304" "$(best "${peer_304[@]}")")"
fi
awk -v a="$c200" -v b="$c304" -v ba="$b200" -v bb="$b304" -v p="${p200:-0}" -v pa="$c200_p99" -v pb="$c304_p99" \
    -v f="$fanout_seconds" -v fc="$fanout_ceiling" 'BEGIN {
    printf "goals: 200 >= 0.5 of bare: %s (%.3f); 200 >= 3x peer: %s; 304 >= 0.6 of bare: %s (%.3f)\n",
        (a >= 0.5 * ba ? "met" : "MISSED"), a / ba, (p == 0 ? "not measured" : (a >= 3 * p ? "met" : "MISSED")),
        (b >= 0.6 * bb ? "met" : "MISSED"), b / bb
    printf "       p99 <= 5 ms: 200 %s (%.2f ms), 304 %s (%.2f ms); fan-out <= 1.5x straight: %s (%.2f)\n",
        (pa <= 5 ? "met" : "MISSED"), pa, (pb <= 5 ? "met" : "MISSED"), pb, (f <= 1.5 * fc ? "met" : "MISSED"), f / fc }'
