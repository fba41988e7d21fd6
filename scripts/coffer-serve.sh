# Sourced by scripts that need a running `coffer serve` on a free port (.ci/fuzz-api.sh, scripts/apple-validate.sh):
#   start_coffer_serve <coffer binary> <work folder> [serve options…]
# starts it with its data in <work folder>/data and its log in <work folder>/serve.log, waits until it listens, and
# sets `server` (its pid) and `port`. The caller stops it (kill "$server") in its EXIT trap.
start_coffer_serve() {
    local coffer=$1 work=$2
    shift 2
    "$coffer" serve --port 0 --data-dir "$work/data" "$@" >"$work/serve.log" 2>&1 &
    server=$!
    port=
    for _ in $(seq 1 600); do
        port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/serve.log" | head -n 1)
        [ -n "$port" ] && return 0
        kill -0 "$server" 2>/dev/null || { cat "$work/serve.log"; echo "coffer serve stopped"; return 1; }
        sleep 0.5
    done
    echo "coffer serve did not start"
    return 1
}
