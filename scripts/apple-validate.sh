#!/usr/bin/env bash
# Runs Apple's own pass validator (`buildpass validate`, from Apple's public pass-builder repository) over every kind of
# pass Coffer emits: the callback's bound pass, the pass a device fetches after an update, a pass made through the
# management API, a pass in three languages, a personalized pass, the example passes built with `coffer pass build`, and the passes the tests
# sign (a sample of every layout, and passes shaped like Apple's documented examples). Prints each finding and
# exits 1 on any error (warnings are printed and do not fail).
#
# Usage: scripts/apple-validate.sh [pass-builder checkout]   (default: $PASS_BUILDER_DIR, else /tmp/pass-builder)
#
# The checkout is a copy of github.com/apple/pass-builder kept OUTSIDE this repository (nothing of it is committed). Its
# manifest pins versions this machine's package mirror lacks: the script moves them to the mirror's and, on Linux,
# unwraps one pointer in Sources/buildpass/ReadCredential.swift, then builds buildpass once. CI cannot fetch the
# repository, so this runs by hand, before every change to what passes contain.
set -euo pipefail
cd "$(dirname "$0")/.."
builder=${1:-${PASS_BUILDER_DIR:-/tmp/pass-builder}}
[ -f "$builder/Package.swift" ] || { echo "no pass-builder checkout at $builder (see the header)"; exit 2; }

# 1. buildpass, built once outside the project.
buildpass="$builder/.build/debug/buildpass"
if [ ! -x "$buildpass" ]; then
    sed -i \
        -e 's|swift-subprocess", exact: Version("0.4.0")|swift-subprocess", exact: Version("1.0.2")|' \
        -e 's|swift-argument-parser", exact: Version("1.6.1")|swift-argument-parser", exact: Version("1.8.2")|' \
        -e 's|swift-system", exact: Version("1.6.4")|swift-system", exact: Version("1.8.1")|' \
        -e 's|swift-crypto", exact: Version("3.14.0")|swift-crypto", exact: Version("3.12.3")|' \
        -e 's|swift-protobuf", exact: Version("1.37.0")|swift-protobuf", exact: Version("1.39.0")|' \
        -e 's|swift-certificates", exact: Version("1.19.1")|swift-certificates", exact: Version("1.21.1")|' \
        -e 's|swift-nio-ssl", exact: Version("2.36.1")|swift-nio-ssl", exact: Version("2.37.6")|' \
        -e 's|swift-docc-plugin", exact: Version("1.4.0")|swift-docc-plugin", exact: Version("1.5.0")|' \
        "$builder/Package.swift"
    sed -i 's|explicit_bzero(ptr.baseAddress, ptr.count)|explicit_bzero(ptr.baseAddress!, ptr.count)|' \
        "$builder/Sources/buildpass/ReadCredential.swift"
    (cd "$builder" && swift build --product buildpass) >/dev/null
fi

# 2. coffer, and a server whose passes carry a web service (an https public URL on loopback).
swift build --build-tests >/dev/null  # coffer, and the tests whose passes are checked too
coffer="$(swift build --show-bin-path)/coffer"
work=$(mktemp -d /tmp/coffer-apple-validate.XXXXXX)
data="$work/data"
server=
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
. scripts/coffer-serve.sh
start_coffer_serve "$coffer" "$work" --public-url https://wallet.example.test
base="http://127.0.0.1:$port"
admin() { "$coffer" admin "$@" --data-dir "$data" 2>/dev/null; }
json() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }

seed=$(admin seed-demo --json)
token=$(printf '%s' "$seed" | json api_token)
client=$(printf '%s' "$seed" | json client_id)
tag=$(printf '%s' "$seed" | json tag_id)
pass_type=$(printf '%s' "$seed" | json pass_type_id)
auth=(-u "$token:")

# Issuer data for `tag`, then the device's callback: the bound .pkpass at `out`.
bind() {
    local tag=$1 out=$2 issued session
    issued=$(curl -sSf "${auth[@]}" -H 'content-type: application/json' -d "{\"tag_id\":\"$tag\"}" \
        "$base/api/v2/in_app_provisioning/issuer_data")
    session=$(printf '%s' "$issued" | json issuer_data | base64 -d | json sessionIdentifier)
    curl -sSf -H 'content-type: application/json' -d '{"issuerBindingData":"0a0b0c","keyHash":"c0ffee"}' \
        -o "$out" "$base/api/v2/in_app_provisioning/callback?sessionIdentifier=$session"
}
# The pass.json key `key` of the .pkpass `file`.
pass_key() { unzip -p "$1" pass.json | json "$2"; }

# The bound pass, and the pass a device fetches after a change.
bind "$tag" "$work/bound.pkpass"
admin pass update --client "$client" --tag "$tag" --field seat="Row 7" >/dev/null
serial=$(pass_key "$work/bound.pkpass" serialNumber)
type_identifier=$(pass_key "$work/bound.pkpass" passTypeIdentifier)
pass_token=$(pass_key "$work/bound.pkpass" authenticationToken)
curl -sSf -H "Authorization: ApplePass $pass_token" -o "$work/updated.pkpass" \
    "$base/passkit/v1/passes/$type_identifier/$serial"

# A pass made through the management API (bound, as every pass the server hands out).
curl -sSf "${auth[@]}" -H 'content-type: application/json' -d '{"reference_id":"MANAGED-1"}' \
    "$base/api/v2/passes" >/dev/null
bind MANAGED-1 "$work/managed.pkpass"

# A pass in English, German and Japanese through the management API, bound; each language's pass.strings is UTF-16.
curl -sSf "${auth[@]}" -H 'content-type: application/json' "$base/api/v2/passes" >/dev/null -d '{
  "reference_id": "LOCALIZED-1",
  "fields": {"event": {
    "value": {"en": "Swift in Concert", "de": "Swift im Konzert", "ja": "Swift コンサート"},
    "label": {"en": "EVENT", "de": "VERANSTALTUNG", "ja": "イベント"},
    "change_message": {"en": "Now: %@", "de": "Jetzt: %@", "ja": "変更: %@"}}}}'
bind LOCALIZED-1 "$work/localized.pkpass"
for language in en de ja; do
    bom=$(unzip -p "$work/localized.pkpass" "$language.lproj/pass.strings" | head -c 2 | od -An -tx1 | tr -d ' ')
    [ "$bom" = fffe ] || { echo "$language.lproj/pass.strings is not UTF-16 with a byte order mark"; exit 1; }
done

# A personalized pass: a rewards template, a pass from it, bound, personalized, fetched again.
template="$work/rewards.pass"
mkdir -p "$template"
cp Examples/Passes/EventTicket.pass/icon*.png "$template/"
cp Examples/Passes/EventTicket.pass/logo.png "$template/personalizationLogo.png"
cat >"$template/pass.json" <<'EOF'
{"formatVersion": 1, "passTypeIdentifier": "pass.placeholder", "teamIdentifier": "PLACEHOLDER",
 "serialNumber": "TEMPLATE", "organizationName": "Coffer", "description": "Rewards card",
 "storeCard": {"primaryFields": [{"key": "points", "label": "POINTS", "value": "0"}],
   "secondaryFields": [{"key": "personalization.fullName", "label": "MEMBER", "value": "Not yet a member"}]},
 "barcodes": [{"format": "PKBarcodeFormatQR", "message": "MEMBER-PENDING", "messageEncoding": "iso-8859-1"}],
 "nfc": {"message": "TEMPLATE"}}
EOF
cat >"$template/personalization.json" <<'EOF'
{"description": "Join Coffer Rewards", "requiredPersonalizationFields": ["PKPassPersonalizationFieldName"]}
EOF
admin pass-type template --pass-type "$pass_type" "$template"
curl -sSf "${auth[@]}" -H 'content-type: application/json' -d '{"reference_id":"REWARDS-1"}' \
    "$base/api/v2/passes" >/dev/null
bind REWARDS-1 "$work/personalizable.pkpass"
serial=$(pass_key "$work/personalizable.pkpass" serialNumber)
pass_token=$(pass_key "$work/personalizable.pkpass" authenticationToken)
personalization_token=$(head -c 32 /dev/urandom | base64 -w0)
curl -sSf -H 'content-type: application/json' -o /dev/null \
    -d "{\"personalizationToken\":\"$personalization_token\",\"requiredPersonalizationInfo\":{\"fullName\":\"Jane Appleseed\"}}" \
    "$base/passkit/v1/passes/$type_identifier/$serial/personalize"
curl -sSf -H "Authorization: ApplePass $pass_token" -o "$work/personalized.pkpass" \
    "$base/passkit/v1/passes/$type_identifier/$serial"

# The passes of the tests: a sample of every layout and the passes shaped like Apple's documented examples.
COFFER_EXPORT_PASSES="$work" swift test --skip-build --filter LintedPassSigningTests >/dev/null

# The examples, signed by the CLI.
COFFER_P12_PASSPHRASE=validate "$coffer" pass dev-identity "$work/identity" >/dev/null
for example in Examples/Passes/*.pass; do
    COFFER_P12_PASSPHRASE=validate "$coffer" pass build "$example" --certificate "$work/identity/pass-type.p12" \
        -o "$work/example-$(basename "$example" .pass).pkpass" >/dev/null
done

# 3. Apple's validator over each, unzipped (buildpass reads a pass folder).
failed=0
for pkpass in "$work"/*.pkpass; do
    name=$(basename "$pkpass" .pkpass)
    folder="$work/unzipped/$name"
    mkdir -p "$folder"
    unzip -q "$pkpass" -d "$folder"
    set +e
    output=$("$buildpass" validate "$folder" 2>&1)
    status=$?
    set -e
    echo "== $name: $(printf '%s' "$output" | tr '\n' ' ')"
    [ "$status" -eq 0 ] || failed=1
done
[ "$failed" -eq 0 ] || { echo "Apple's validator found errors"; exit 1; }
echo "Apple's validator found no error in any pass"
