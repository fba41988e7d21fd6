#!/usr/bin/env bash
# Coffer as a dependency, the way an app team meets it: a throwaway git repository of this checkout, tagged 1.0.0,
# and two consumer packages that depend on it by URL and version with no traits enabled:
#   - app-side: Secrets, SecretsKeychain, Keychain, AppSecureStorage, LocalData, TokenAuthentication. It must resolve
#     at most MAX_APP_PACKAGES packages besides itself (none of the server stack), and build.
#   - SDK-only: ProntoWalletSDK. Its build must compile no module outside Coffer's SDK and the consumer itself.
#   - orders-only and Google-only, with the `Wallet` trait: WalletOrders builds without the pass or Google code,
#     WalletGoogle without the order code.
# Usage: bash .ci/consumer-test.sh   (from the repository root; leaves nothing behind)
set -euo pipefail
cd "$(dirname "$0")/.."
MAX_APP_PACKAGES=${MAX_APP_PACKAGES:-6}
work=$(mktemp -d /tmp/coffer-consumers.XXXXXX)
[ -n "${KEEP_CONSUMERS:-}" ] || trap 'rm -rf "$work"' EXIT

echo "-- a tagged repository of this checkout at $work/coffer"
mkdir "$work/coffer"
git ls-files -z | xargs -0 cp --parents -t "$work/coffer"
(
    cd "$work/coffer"
    git init -q
    git add -A
    git -c user.name=ci -c user.email=ci@localhost commit -q -m "Coffer, as released"
    git tag 1.0.0
)

# consumer NAME PRODUCTS... : writes a package that depends on Coffer 1.0.0 with the traits in $traits (none unless
# set) and imports PRODUCTS.
consumer() {
    local name=$1
    shift
    mkdir -p "$work/$name/Sources/$name"
    local products="" imports=""
    for product in "$@"; do
        products+="                .product(name: \"$product\", package: \"coffer\"),"$'\n'
        imports+="import $product"$'\n'
    done
    cat >"$work/$name/Package.swift" <<EOF
// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "$name",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(url: "file://$work/coffer", from: "1.0.0", traits: [${traits:-}])
    ],
    targets: [
        .executableTarget(
            name: "$name",
            dependencies: [
$products            ]
        )
    ]
)
EOF
    printf '%s\n%s\n' "$imports" "print(\"$name links\")" >"$work/$name/Sources/$name/main.swift"
}

# Builds the consumer at $1, printing its errors when the build fails.
build() {
    if ! swift build --package-path "$1" >"$1/build.log" 2>&1; then
        grep -E "error:" "$1/build.log" | sort -u | head -30
        echo "FAIL: $(basename "$1") does not build"
        exit 1
    fi
    tail -n 1 "$1/build.log"
}

# The number of packages in a resolved graph, the root excluded.
package_count() {
    swift package --package-path "$1" show-dependencies --format json | python3 -c '
import json, sys
seen = set()
def walk(node):
    for child in node.get("dependencies", []):
        seen.add(child["identity"])
        walk(child)
walk(json.load(sys.stdin))
print(len(seen), " ".join(sorted(seen)), file=sys.stderr)
print(len(seen))'
}

echo "-- app-side consumer: Secrets, SecretsKeychain, Keychain, AppSecureStorage, LocalData, TokenAuthentication"
consumer AppConsumer Secrets SecretsKeychain Keychain AppSecureStorage LocalData TokenAuthentication
swift package --package-path "$work/AppConsumer" resolve >/dev/null
app_packages=$(package_count "$work/AppConsumer")
echo "resolved $app_packages packages besides the app (at most $MAX_APP_PACKAGES)"
[ "$app_packages" -le "$MAX_APP_PACKAGES" ] || { echo "FAIL: the app-side consumer resolves $app_packages packages"; exit 1; }
for server in hummingbird sql-kit postgres-kit sqlite-kit swift-nio swift-certificates zipfoundation; do
    [ ! -d "$work/AppConsumer/.build/checkouts/$server" ] || { echo "FAIL: the app-side consumer fetched $server"; exit 1; }
done
build "$work/AppConsumer"
"$work/AppConsumer/.build/debug/AppConsumer"

echo "-- SDK-only consumer: ProntoWalletSDK"
consumer SDKConsumer ProntoWalletSDK
build "$work/SDKConsumer"
"$work/SDKConsumer/.build/debug/SDKConsumer"
modules=$(cd "$work/SDKConsumer/.build/debug/Modules" && ls -- *.swiftmodule | sed 's/\.swiftmodule$//' | sort | tr '\n' ' ')
echo "compiled modules: $modules"
[ "$modules" = "ProntoWalletSDK SDKConsumer " ] || { echo "FAIL: the SDK-only consumer compiled $modules"; exit 1; }
# SwiftPM plans every target of the graph (an output file map each) but compiles only what the product needs: the
# object files say what was compiled.
compiled=$(cd "$work/SDKConsumer/.build/debug/" && find . -name '*.o' -not -path './Modules/*' | cut -d/ -f2 | sort -u \
    | tr '\n' ' ')
echo "object files in: $compiled"
[ "$compiled" = "ProntoWalletSDK.build SDKConsumer.build " ] || { echo "FAIL: the SDK-only consumer compiled $compiled"; exit 1; }

# wallet_consumer NAME PRODUCT FORBIDDEN : builds a consumer of PRODUCT with the Wallet trait and fails if it compiled
# one of the FORBIDDEN modules (a regular expression).
wallet_consumer() {
    local name=$1 product=$2 forbidden=$3
    echo "-- $name: $product alone, with the Wallet trait"
    traits='"Wallet"' consumer "$name" "$product"
    build "$work/$name"
    "$work/$name/.build/debug/$name"
    local compiled
    compiled=$(cd "$work/$name/.build/debug/" && find . -name '*.o' -not -path './Modules/*' | cut -d/ -f2 | sort -u \
        | sed 's/\.build$//' | grep -E '^(Wallet|Coffer|Secrets)' | tr '\n' ' ')
    echo "Coffer modules compiled: $compiled"
    if echo " $compiled" | grep -qE " ($forbidden) "; then
        echo "FAIL: $name compiled $compiled"
        exit 1
    fi
}
wallet_consumer OrdersConsumer WalletOrders "WalletPasses|WalletGoogle|WalletServices|WalletStore|WalletServer"
wallet_consumer GoogleConsumer WalletGoogle "WalletOrders|WalletServices|WalletStore|WalletServer"

echo "consumer test passed: app-side $app_packages packages, SDK-only compiles Coffer's SDK alone, orders and Google"
echo "each without the other's code"
