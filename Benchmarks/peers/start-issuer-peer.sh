#!/usr/bin/env bash
# Starts the Python peer of Coffer's issuer_data endpoint (issuer_data_peer.py: FastAPI + uvicorn with 2 workers,
# SQLite WAL synchronous=FULL, pyca/cryptography) on 127.0.0.1 in the background, and returns once it answers.
#
# Usage: bash Benchmarks/peers/start-issuer-peer.sh <work-dir> <tag-count>
# Writes <work-dir>/peer.env (PEER_PORT, PEER_PID, PEER_TOKEN), <work-dir>/peer-tags.txt (one tag per line) and
# <work-dir>/peer.log (uvicorn, access log included: Coffer logs every request too). Stop it with
# `kill "$PEER_PID"` after sourcing peer.env.
# The virtual environment is /tmp/coffer-peer-venv (reused if present; PEER_VENV to change it).
# PEER_WORKERS (default 2), PEER_ACCESS_LOG=0 to drop uvicorn's access log, PEER_ENDPOINT=thread for a plain `def`
# endpoint in FastAPI's thread pool instead of the default `async def`.
set -euo pipefail
work=${1:?usage: start-issuer-peer.sh <work-dir> <tag-count>}
tag_count=${2:?usage: start-issuer-peer.sh <work-dir> <tag-count>}
here=$(cd "$(dirname "$0")" && pwd)
venv=${PEER_VENV:-/tmp/coffer-peer-venv}
workers=${PEER_WORKERS:-2}
mkdir -p "$work"
work=$(cd "$work" && pwd)

if [ ! -x "$venv/bin/uvicorn" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "fastapi==0.163.2" "uvicorn[standard]==0.54.0" "cryptography==48.0.0"
fi
"$venv/bin/python" "$here/issuer_data_peer.py" seed "$work" --tags "$tag_count" >/dev/null
"$venv/bin/python" - "$work" <<'PY'
import json, sys
from pathlib import Path
work = Path(sys.argv[1])
seed = json.loads((work / "seed.json").read_text())
(work / "peer-tags.txt").write_text("\n".join(seed["tag_ids"]) + "\n")
PY

port=$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
access_log=--access-log
[ "${PEER_ACCESS_LOG:-1}" = 0 ] && access_log=--no-access-log
PEER_WORK_DIR="$work" PEER_CALLBACK_URL="http://127.0.0.1:$port/api/v2/in_app_provisioning/callback" \
    nohup "$venv/bin/uvicorn" issuer_data_peer:app --app-dir "$here" --host 127.0.0.1 --port "$port" \
    --workers "$workers" --loop uvloop --http httptools "$access_log" --log-level info \
    >"$work/peer.log" 2>&1 &
pid=$!
token=$("$venv/bin/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["api_token"])' "$work/seed.json")
umask 077
printf 'PEER_PORT=%s\nPEER_PID=%s\nPEER_TOKEN=%s\n' "$port" "$pid" "$token" >"$work/peer.env"

# Ready once both workers answer (a request without credentials: 401).
for _ in $(seq 1 200); do
    if ! kill -0 "$pid" 2>/dev/null; then echo "the peer exited:" >&2; cat "$work/peer.log" >&2; exit 1; fi
    started=$(grep -c "Application startup complete" "$work/peer.log" || true)
    if [ "$started" -ge "$workers" ] && curl -s -o /dev/null -X POST \
        "http://127.0.0.1:$port/api/v2/in_app_provisioning/issuer_data"; then
        echo "issuer peer on 127.0.0.1:$port (pid $pid, $workers workers)"
        exit 0
    fi
    sleep 0.1
done
echo "the peer did not answer within 20 s:" >&2
cat "$work/peer.log" >&2
kill "$pid" 2>/dev/null || true
exit 1
