#!/usr/bin/env bash
# Starts an open-source peer of Coffer's pass fetch: django-walletpass 5.0.1 (Django + Django REST framework), its
# Apple Wallet web service mounted under /passkit/ (GET /passkit/v1/passes/<type>/<serial> with
# `Authorization: ApplePass <token>`), served by gunicorn (2 workers of class gthread x 4 threads, no access log) on
# 127.0.0.1 in the background; returns once it answers.
#
# Usage: bash Benchmarks/peers/start-walletpass-peer.sh <work-dir> <pkpass-file> <pass-type-id> <serial> <token> <port>
# The work dir gets the Django project (walletpass_peer/, copied from here), db.sqlite3 with one Pass stored as
# django-walletpass stores them (its body a copy of <pkpass-file> under media/passes/), throwaway secret_key,
# cert.pem and key.pem (openssl), gunicorn.log, and gunicorn.pid (gunicorn's arbiter). Reusing a work dir updates the
# pass (and its Last-Modified). Stop it with stop-walletpass-peer.sh <work-dir>.
# Installs django-walletpass, Django, DRF, gunicorn and pyOpenSSL, pinned, into the virtual environment
# /tmp/coffer-peer-venv (shared with start-issuer-peer.sh, hence its cryptography pin; PEER_VENV to change it).
set -euo pipefail
usage="usage: start-walletpass-peer.sh <work-dir> <pkpass-file> <pass-type-id> <serial> <token> <port>"
work=${1:?$usage}
pkpass=$(realpath "${2:?$usage}")
pass_type=${3:?$usage}
serial=${4:?$usage}
token=${5:?$usage}
port=${6:?$usage}
here=$(cd "$(dirname "$0")" && pwd)
venv=${PEER_VENV:-/tmp/coffer-peer-venv}
prefix=/passkit
mkdir -p "$work"
work=$(cd "$work" && pwd)
if [ -f "$work/gunicorn.pid" ] && kill -0 "$(cat "$work/gunicorn.pid")" 2>/dev/null; then
    echo "a peer already runs from $work (pid $(cat "$work/gunicorn.pid"))" >&2
    exit 1
fi

if ! "$venv/bin/python" -c 'import django_walletpass, gunicorn' 2>/dev/null; then
    python3 -c 'import ensurepip' 2>/dev/null || { apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null; }
    [ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install -q "django-walletpass==5.0.1" "Django==5.2.19" "djangorestframework==3.18.3" \
        "gunicorn==27.0.1" "cryptography==48.0.0" "pyOpenSSL==26.2.0"
fi

# The project, its throwaway secrets (kept across reuse), the schema and the pass.
rm -rf "$work/walletpass_peer"
mkdir "$work/walletpass_peer"
cp "$here"/walletpass_peer/*.py "$work/walletpass_peer/"
(
    umask 077
    [ -s "$work/secret_key" ] || openssl rand -hex 32 >"$work/secret_key"
    [ -s "$work/key.pem" ] || openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj "/CN=Pass Type ID: $pass_type" \
        -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
)
cd "$work"  # python -m puts the current dir first on sys.path: the copy, not $here's
export DJANGO_SETTINGS_MODULE=walletpass_peer.settings PYTHONPATH=$work PEER_PASS_TYPE_ID=$pass_type \
    PEER_SERVICE_URL=http://127.0.0.1:$port$prefix/
"$venv/bin/python" -m django migrate -v 0
"$venv/bin/python" -W ignore::DeprecationWarning -m walletpass_peer.store_pass "$pkpass" "$pass_type" "$serial" "$token"

nohup "$venv/bin/gunicorn" walletpass_peer.wsgi:application --chdir "$work" --bind "127.0.0.1:$port" \
    --workers 2 --worker-class gthread --threads 4 --no-control-socket --log-level info >"$work/gunicorn.log" 2>&1 &
pid=$!
echo "$pid" >"$work/gunicorn.pid"

# Ready once both workers have booted and a fetch without credentials answers (401).
for _ in $(seq 1 200); do
    if ! kill -0 "$pid" 2>/dev/null; then echo "the peer exited:" >&2; cat "$work/gunicorn.log" >&2; exit 1; fi
    booted=$(grep -c "Booting worker" "$work/gunicorn.log" || true)
    if [ "$booted" -ge 2 ] && curl -s -o /dev/null "http://127.0.0.1:$port$prefix/v1/passes/$pass_type/$serial"; then
        echo "peer listening on 127.0.0.1:$port prefix=$prefix"
        exit 0
    fi
    sleep 0.1
done
echo "the peer did not answer within 20 s:" >&2
cat "$work/gunicorn.log" >&2
kill "$pid" 2>/dev/null || true
exit 1
