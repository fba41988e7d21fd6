#!/usr/bin/env bash
# Measures a Python peer and, in the same run, `openssl speed rsa2048` (one core and -multi 2), and prints each figure
# with its ratio to those ceilings (one RSA-2048 signature per request or build).
#
# Usage: bash Benchmarks/peers/measure-peers.sh issuer [seconds] [connections]
#        bash Benchmarks/peers/measure-peers.sh pkpass [seconds]
# issuer: measures openssl, starts issuer_data_peer.py (start-issuer-peer.sh, 20000 tags; COFFER_LOAD_TAGS to
#         change) and loads it with `wrk -t2 -c16` over every tag in turn, on the same cores as the server
#         (default 15 s after a 3 s warm-up); requests/s, p50, p99; then openssl again (ratios to the mean of both).
#         Fails on any non-2xx answer or socket error. PEER_ENDPOINT and PEER_ACCESS_LOG pass on to
#         start-issuer-peer.sh.
# pkpass: pkpass_peer.py on one core, deflate and stored, TypicalPass's images and incompressible ones (default
#         8 s each).
# Run it under the build lock so that the machine is otherwise quiet:
#   flock /tmp/coffer-build.lock bash Benchmarks/peers/measure-peers.sh issuer
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
what=${1:?usage: measure-peers.sh issuer|pkpass [seconds] [connections]}
venv=${PEER_VENV:-/tmp/coffer-peer-venv}
python=$venv/bin/python
work=$(mktemp -d /tmp/coffer-peers-XXXXXX)
peer_pid=""
# Stops the peer (uvicorn's supervisor, which stops its workers) and waits until it is gone.
stop_peer() {
    [ -n "$peer_pid" ] || return 0
    kill "$peer_pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$peer_pid" 2>/dev/null || break; sleep 0.1; done
    peer_pid=""
}
cleanup() {
    stop_peer
    rm -rf "$work"
}
trap cleanup EXIT

# shellcheck source=../load-common.sh
. "$here/../load-common.sh"
OPENSSL_SECONDS=3

case "$what" in
issuer)
    seconds=${2:-15}
    connections=${3:-16}
    one_before=$(openssl_signs)
    multi_before=$(openssl_signs -multi 2)
    bash "$here/start-issuer-peer.sh" "$work" "${COFFER_LOAD_TAGS:-20000}" >/dev/null
    # shellcheck disable=SC1091
    . "$work/peer.env"
    peer_pid=$PEER_PID
    authorization="Basic $(printf '%s:' "$PEER_TOKEN" | base64 -w0)"
    url="http://127.0.0.1:$PEER_PORT/api/v2/in_app_provisioning/issuer_data"
    script=$here/../issuer-data.lua
    wrk -t2 -c"$connections" -d3s -s "$script" "$url" -- "$work/peer-tags.txt" "$authorization" >/dev/null
    wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$script" "$url" -- "$work/peer-tags.txt" "$authorization" \
        >"$work/wrk.txt"
    read -r rps p50 p99 <<<"$(wrk_figures "$work/wrk.txt")"
    stop_peer
    one_after=$(openssl_signs)
    multi_after=$(openssl_signs -multi 2)
    one=$(awk -v a="$one_before" -v b="$one_after" 'BEGIN { printf "%.1f", (a + b) / 2 }')
    multi=$(awk -v a="$multi_before" -v b="$multi_after" 'BEGIN { printf "%.1f", (a + b) / 2 }')
    echo "issuer_data peer (FastAPI+uvicorn 2 workers, SQLite WAL FULL, pyca; endpoint ${PEER_ENDPOINT:-async}," \
        "access log ${PEER_ACCESS_LOG:-1}), wrk -t2 -c$connections ${seconds}s:"
    echo "  $rps requests/s, p50 $p50 ms, p99 $p99 ms"
    echo "  openssl speed rsa2048 before/after: $one_before/$one_after signs/s on one core," \
        "$multi_before/$multi_after with -multi 2"
    echo "  ratio to one core: $(ratio "$rps" "$one"); to -multi 2: $(ratio "$rps" "$multi")"
    ;;
pkpass)
    seconds=${2:-8}
    "$python" "$here/issuer_data_peer.py" keys "$work"
    "$python" "$here/pkpass_peer.py" "$work" --check >/dev/null
    one=$(openssl_signs)
    multi=$(openssl_signs -multi 2)
    echo "pkpass peer (pyca, zipfile), one core; openssl speed rsa2048: $one signs/s one core, $multi -multi 2"
    for options in "" "--store" "--store --prehash" "--incompressible" "--incompressible --store"; do
        # shellcheck disable=SC2086
        result=$("$python" "$here/pkpass_peer.py" "$work" --seconds "$seconds" $options)
        rate=$("$python" -c 'import json, sys; print(json.loads(sys.argv[1])["builds_per_second"])' "$result")
        echo "  ${options:-(deflate)}: $result"
        echo "    ratio to one core: $(ratio "$rate" "$one"); to -multi 2: $(ratio "$rate" "$multi")"
    done
    ;;
*)
    echo "usage: measure-peers.sh issuer|pkpass [seconds] [connections]" >&2
    exit 2
    ;;
esac
