#!/usr/bin/env bash
# The API against its description: schemathesis (PyPI) generates requests from docs/openapi.yaml and runs every check
# (status codes, content types, response schemas, headers, server errors, unsupported methods, …) against a real
# `coffer serve` with a seeded client, API token, tag TICKET-1 and order SHOP-1042. Any finding fails the run.
# Usage: bash .ci/fuzz-api.sh   (after `swift build`; needs `pip install schemathesis`)
set -euo pipefail
cd "$(dirname "$0")/.."
coffer="$(swift build --show-bin-path)/coffer"
work=$(mktemp -d /tmp/coffer-fuzz.XXXXXX)
server=
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
. scripts/coffer-serve.sh
# No issuance rate limit: with it, most fuzzed issuer_data calls would be answered 429 and the logic behind the
# limit would go untested (the limit has its own tests).
# Google Wallet writes go to a port where nothing listens: nothing in CI calls Google.
COFFER_GOOGLE_WALLET_STAND_IN=http://127.0.0.1:9 start_coffer_serve "$coffer" "$work" --issuance-rate-limit 0

# The same setup as the README's quick start (the server made the development pass type on start).
client=$("$coffer" admin client create --name Fuzz --data-dir "$work/data" 2>/dev/null)
token=$("$coffer" admin api-user create --client "$client" --data-dir "$work/data" 2>/dev/null)
"$coffer" admin tag create --client "$client" --reference-id TICKET-1 --data-dir "$work/data" >/dev/null 2>&1
# A Google issuer for the development pass type, so that save links are made, with a service account key made here.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/google.pem" 2>/dev/null
python3 -c 'import json,sys; print(json.dumps({"type": "service_account", "client_email": "fuzz@coffer-ci.iam.gserviceaccount.com", "private_key": open(sys.argv[1]).read()}))' \
    "$work/google.pem" >"$work/google.json"
"$coffer" admin pass-type google set pass.dev.coffer.local --issuer-id 3388000000012345678 \
    --service-account "$work/google.json" --data-dir "$work/data" >/dev/null

# The development order type, shared with the client, and an order SHOP-1042 (the paths' example) to fuzz.
order_type=$("$coffer" admin seed-demo --orders --json --data-dir "$work/data" 2>/dev/null \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["order_type_id"])')
"$coffer" admin pass-type share --pass-type "$order_type" --client "$client" --data-dir "$work/data" >/dev/null 2>&1
curl -fsS -u "$token:" -H 'Content-Type: application/json' "http://127.0.0.1:$port/api/v2/orders" -d '{"order":
    {"orderIdentifier":"SHOP-1042","orderManagementURL":"https://shop.example.com/o/1042",
     "merchant":{"displayName":"Fuzz Shoes","merchantIdentifier":"merchant.com.example","url":"https://shop.example.com"}}}' \
    >/dev/null

# The command pip installs (pyenv puts it on PATH through a shim; elsewhere it is beside python3).
schemathesis=$(command -v schemathesis || echo "$(dirname "$(python3 -c 'import sys; print(sys.executable)')")/schemathesis")
"$schemathesis" --config-file .ci/schemathesis.toml run docs/openapi.yaml --url "http://127.0.0.1:$port" \
    --header "Authorization: Basic $(printf '%s:' "$token" | base64 -w0)" \
    --checks all --seed 20261123 --max-examples 100 --request-timeout 30 || {
    # What the server logged as errors (a 500 says why only there).
    grep -E ' (error|critical) ' "$work/serve.log" | tail -n 20
    exit 1
}
