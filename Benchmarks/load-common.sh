# Shared by the load scripts (sourced): release builds, the openssl ceiling and wrk's figures.

# Signatures per second of `openssl speed rsa2048`, with any further arguments (-multi N).
openssl_signs() {
    openssl speed -seconds "${OPENSSL_SECONDS:-5}" "$@" rsa2048 2>/dev/null |
        awk '/^rsa +2048 bits/ { value = $(NF - 1) } END { print value }'
}

# Builds in release mode with any further arguments, showing the compiler's errors when it fails.
release_build() {
    local log
    log=$(mktemp /tmp/coffer-build-XXXXXX)
    swift build -c release "$@" >"$log" 2>&1 || { grep -E "error:" "$log" | sort -u | head -20; exit 1; }
}

# a / b with three decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

# A wrk latency ("812.00us", "12.5ms", "1.02s") in milliseconds.
to_ms() {
    awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v !~ /ms$/ && v ~ /s$/) n *= 1000
        printf "%.2f", n }'
}

# Prints "requests/s p50_ms p99_ms" of a wrk --latency report in file $1; fails, showing the report, if it counted
# any non-2xx answer or socket error.
wrk_figures() {
    if grep -qE "Non-2xx|Socket errors" "$1" || ! grep -q "^Requests/sec:" "$1"; then
        cat "$1" >&2
        echo "FAIL: errors under load (see above)" >&2
        return 1
    fi
    echo "$(awk '/^Requests\/sec:/ { print $2 }' "$1")" \
        "$(to_ms "$(awk '$1 == "50%" { print $2 }' "$1")")" \
        "$(to_ms "$(awk '$1 == "99%" { print $2 }' "$1")")"
}
