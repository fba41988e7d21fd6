#!/usr/bin/env bash
# Stops the django-walletpass peer that start-walletpass-peer.sh started from <work-dir> (SIGTERM to gunicorn's
# arbiter, which stops its workers) and waits until it is gone. Does nothing if it is not running.
#
# Usage: bash Benchmarks/peers/stop-walletpass-peer.sh <work-dir>
set -euo pipefail
work=${1:?usage: stop-walletpass-peer.sh <work-dir>}
[ -f "$work/gunicorn.pid" ] || exit 0
pid=$(cat "$work/gunicorn.pid")
kill "$pid" 2>/dev/null || true
for _ in $(seq 1 300); do
    if ! kill -0 "$pid" 2>/dev/null; then rm -f "$work/gunicorn.pid"; exit 0; fi
    sleep 0.1
done
echo "gunicorn (pid $pid) did not stop within 30 s" >&2
exit 1
