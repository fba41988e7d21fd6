#!/usr/bin/env bash
# Prints, from one run on this machine, how Coffer's encrypted file store compares with two baselines:
#   1. sealing a 1 MiB item vs `openssl speed -evp aes-256-gcm` on 1 MiB blocks (the cipher alone);
#   2. a durable 64 B save vs a bare open/write/fsync/rename/fsync-dir loop (the file dance alone);
# and pass signatures and .pkpass builds vs `openssl speed rsa2048` (one RSA-2048 signature per pass).
# Usage: bash Benchmarks/compare-baselines.sh [scratch-directory on the disk to measure]
set -euo pipefail
cd "$(dirname "$0")"
scratch=${1:-$(pwd)/.build}
mkdir -p "$scratch"

swift build -c release --product coffer-baselines >/dev/null
results=$(swift run -c release --skip-build coffer-baselines "$scratch")
echo "$results"
# glibc serves 1 MiB buffers with fresh mmap pages, whose page faults cost as much as the cipher; a second run
# with a raised mmap threshold shows the cipher work alone (openssl speed reuses one buffer).
warm=$(MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=67108864 \
    swift run -c release --skip-build coffer-baselines "$scratch" | awk '$1 == "seal-1MiB-bytes-per-second" { print $2 }')
echo "seal-1MiB-bytes-per-second-reused-buffers $warm"

# openssl prints e.g. "AES-256-GCM  4107459.85k" in thousands of bytes per second.
openssl_line=$(openssl speed -evp aes-256-gcm -bytes 1048576 -seconds 3 2>/dev/null | grep -i '^aes-256-gcm' | tail -1)
openssl_bytes=$(echo "$openssl_line" | awk '{ v = $NF; sub(/k$/, "", v); printf "%.0f", v * 1000 }')
echo "openssl-aes-256-gcm-bytes-per-second $openssl_bytes"

# openssl prints "rsa 2048 bits 0.000573s 0.000017s 1745.2 58823.5" (sign/s is the second-to-last column).
rsa_signs=$(openssl speed -seconds 3 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ { print $(NF-1) }' | tail -1)
echo "openssl-rsa2048-signs-per-second $rsa_signs"
# The same without OpenSSL's AVX-512 IFMA RSA code, which BoringSSL (inside swift-crypto) does not have.
rsa_signs_no_ifma=$(OPENSSL_ia32cap=":~0x200000" openssl speed -seconds 3 rsa2048 2>/dev/null \
    | awk '/^rsa 2048 bits/ { print $(NF-1) }' | tail -1)
echo "openssl-rsa2048-signs-per-second-without-avx512ifma $rsa_signs_no_ifma"

value() { echo "$results" | awk -v key="$1" '$1 == key { print $2 }'; }
awk -v seal="$(value seal-1MiB-bytes-per-second)" -v warm="$warm" -v openssl="$openssl_bytes" \
    -v coffer="$(value coffer-durable-write-per-second)" -v bare="$(value bare-durable-write-per-second)" 'BEGIN {
    printf "ratio 1 MiB seal / openssl aes-256-gcm:      %.2f  (%.0f MB/s vs %.0f MB/s)\n", seal / openssl, seal / 1e6, openssl / 1e6
    printf "ratio same, buffers reused / openssl:        %.2f  (%.0f MB/s)\n", warm / openssl, warm / 1e6
    printf "ratio durable 64 B save / bare fsync loop:   %.2f  (%.0f/s vs %.0f/s)\n", coffer / bare, coffer, bare
}'
awk -v signatures="$(value pass-signatures-per-second)" -v builds="$(value pkpass-builds-per-second)" \
    -v rsa="$rsa_signs" -v plain="$rsa_signs_no_ifma" -v raw="$(value swift-crypto-rsa2048-signs-per-second)" \
    -v engine="$(value pass-signature-engine)" -v openssl_engine="$(value pass-signatures-per-second-openssl)" \
    -v swift_engine="$(value pass-signatures-per-second-swift-crypto)" 'BEGIN {
    printf "ratio pass signatures / openssl rsa2048 sign: %.2f  (%.0f/s vs %.0f/s; default engine %s)\n", signatures / rsa, signatures, rsa, engine
    if (openssl_engine > 0)
        printf "ratio same, openssl engine / openssl sign:    %.2f  (%.0f/s)\n", openssl_engine / rsa, openssl_engine
    printf "ratio same, swift-crypto engine / openssl:    %.2f  (%.0f/s)\n", swift_engine / rsa, swift_engine
    printf "ratio same / openssl without AVX-512 IFMA:    %.2f  (%.0f/s)\n", signatures / plain, plain
    printf "ratio pass signatures / bare swift-crypto RSA: %.2f  (%.0f/s)\n", signatures / raw, raw
    printf "ratio .pkpass builds / openssl rsa2048 sign:  %.2f  (%.0f/s)\n", builds / rsa, builds
}'
# Packaging: a typical pass through DocumentSigner and through a PreparedPassTemplate, and its parts.
awk -v builds="$(value pkpass-builds-per-second)" -v template="$(value pkpass-template-builds-per-second)" \
    -v signatures="$(value pass-signatures-per-second)" -v zips="$(value pkpass-zips-per-second)" \
    -v manifests="$(value manifests-per-second)" -v rsa="$rsa_signs" 'BEGIN {
    printf "ratio template .pkpass builds / openssl rsa2048: %.2f  (%.0f/s)\n", template / rsa, template
    printf "ratio template builds / pass signatures:        %.2f  (goal >= 0.8)\n", template / signatures
    printf "ratio DocumentSigner .pkpass builds / template:     %.2f  (%.0f/s vs %.0f/s)\n", builds / template, builds, template
    printf "ratio archive alone / openssl rsa2048:          %.2f  (%.0f/s)\n", zips / rsa, zips
    printf "ratio manifest alone / openssl rsa2048:         %.2f  (%.0f/s)\n", manifests / rsa, manifests
}'
