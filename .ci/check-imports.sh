#!/usr/bin/env bash
# The server's layering, checked from its imports: only WalletStore imports the SQL kits, only WalletServer imports
# Hummingbird and HTTPTypes (with the app-side TokenAuthentication, and WalletServerTesting, whose stand-ins
# Hummingbird serves), and the domain (WalletServices) imports neither.
# The coffer executable imports Hummingbird only to run the application it is given.
# The wallet modules form one-way layers: WalletDocuments below WalletPasses and WalletOrders, WalletGoogle on
# WalletPasses, none of them on the server (Sources/WalletDocuments/WalletDocuments.docc/ModuleMap.md).
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
# Prints the library sources outside `allowed` that import one of the modules matching `pattern`.
check() {
    local what=$1 pattern=$2 allowed=$3
    local found
    found=$(grep -rlE "^[[:space:]]*(@[A-Za-z_]+(\([A-Za-z_]+\))? )*import ($pattern)\$" Sources --include='*.swift' \
        | grep -vE "^Sources/($allowed)/" || true)
    if [ -n "$found" ]; then
        echo "$what imported outside Sources/${allowed//|/, Sources/}:"
        echo "$found" | sed 's/^/  /'
        status=1
    fi
}
check "the SQL kits are" "SQLKit|SQLiteKit|SQLiteNIO|PostgresKit|PostgresNIO" "WalletStore"
check "Hummingbird is" "Hummingbird|HummingbirdCore|HummingbirdRouter" "WalletServer|WalletServerTesting|coffer"
check "AsyncHTTPClient is" "AsyncHTTPClient|NIOHTTP1|NIOHTTP2" "WalletServer|WalletServerTesting"
check "HTTPTypes is" "HTTPTypes|HTTPTypesFoundation" "WalletServer|TokenAuthentication"
# Prints the sources of `target` that import one of the modules matching `pattern`.
forbid() {
    local target=$1 pattern=$2
    local found
    found=$(grep -rlE "^[[:space:]]*(@[A-Za-z_]+(\([A-Za-z_]+\))? )*import ($pattern)\$" "Sources/$target" \
        --include='*.swift' || true)
    if [ -n "$found" ]; then
        echo "Sources/$target imports a module outside its layer ($pattern):"
        echo "$found" | sed 's/^/  /'
        status=1
    fi
}
server="WalletServices|WalletStore|WalletServer|WalletServerTesting"
forbid WalletDocuments "WalletPasses|WalletOrders|WalletGoogle|$server"
forbid WalletPasses "WalletOrders|WalletGoogle|$server"
forbid WalletOrders "WalletPasses|WalletGoogle|$server"
forbid WalletGoogle "WalletOrders|$server"
[ "$status" -eq 0 ] && echo "imports: the wallet, store, HTTP and domain targets keep to their layers"
exit "$status"
