#!/usr/bin/env bash
# Typechecks Coffer's Apple-facing modules for arm64-apple-ios17.0 against an iOS SDK, on Linux (the Swift 6.3
# toolchain on PATH). See scripts/README.md for how to get the SDK.
#
# Usage: scripts/ios-typecheck.sh [iPhoneOS.sdk]        (default: $IOS_SDK, else /tmp/ios-sdk/iPhoneOS16.5.sdk)
#
# Run it from anywhere; it works on the checkout it lives in. It needs the project's .build/checkouts (any
# `swift build` leaves them there): swift-log and swift-metrics' CoreMetrics are typechecked from source, and the HTTPTypes stub is checked against
# swift-http-types' sources there. It writes only under $IOS_TYPECHECK_WORK (default /tmp/coffer-ios-typecheck).
#
# Prints every error and warning per module, then one summary line. Exits 0 only when every module typechecks with
# no error and no warning; 1 when any module has one; 2 when the setup is missing (SDK, checkouts).
set -u
PROJ="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SDK="${1:-${IOS_SDK:-/tmp/ios-sdk/iPhoneOS16.5.sdk}}"
APINOTES="$PROJ/scripts/ios-typecheck"
W="${IOS_TYPECHECK_WORK:-/tmp/coffer-ios-typecheck}"
TARGET=arm64-apple-ios17.0
CHECKOUTS="$PROJ/.build/checkouts"

die() { echo "ios-typecheck: $*" >&2; exit 2; }
[ -d "$SDK/System/Library/Frameworks" ] || die "no iOS SDK at '$SDK' (see scripts/README.md)"
[ -d "$CHECKOUTS/swift-log/Sources/Logging" ] || die "no $CHECKOUTS/swift-log: run 'swift build' (or 'swift package resolve') first"
[ -d "$CHECKOUTS/swift-metrics/Sources/CoreMetrics" ] || die "no $CHECKOUTS/swift-metrics: run 'swift build' (or 'swift package resolve') first"
[ -d "$CHECKOUTS/swift-http-types/Sources/HTTPTypes" ] || die "no $CHECKOUTS/swift-http-types: run 'swift package resolve' first"
command -v swiftc > /dev/null || die "swiftc is not on PATH"
TC="$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")/lib/swift"
mkdir -p "$W/out" "$W/stubs" "$W/stubsrc" "$W/sdkfix"
rm -f "$W"/out/*.log

# 1. Resource dir: the Linux toolchain's clang/shims/host, but NOT its dispatch/os/CoreFoundation module maps (they
#    shadow the SDK's), plus the API notes Xcode's toolchain ships and Linux's lacks (Dispatch, os; see README).
rm -rf "$W/res" && mkdir -p "$W/res/apinotes"
for d in clang shims host; do ln -s "$TC/$d" "$W/res/$d"; done
cp "$TC/apinotes/std.apinotes" "$W/res/apinotes/"
cp "$APINOTES/Dispatch.apinotes" "$APINOTES/os.apinotes" "$W/res/apinotes/" || die "missing API notes in $APINOTES"

# A clang module cache built with other API notes or another SDK keeps failing: key the cache to both.
STAMP=$( (cat "$W"/res/apinotes/*.apinotes; echo "$SDK") | sha256sum | cut -c1-16)
[ "$(cat "$W/mc/.stamp" 2> /dev/null)" = "$STAMP" ] || { rm -rf "$W/mc"; mkdir -p "$W/mc"; echo "$STAMP" > "$W/mc/.stamp"; }

# 2. SwiftUI: the 16.5 SDK's Swift-5.8 SwiftUI.swiftinterface has one os_log interpolation (Environment.wrappedValue)
#    that the 6.3 type checker rejects; use a copy without it (found first through -I).
mkdir -p "$W/sdkfix/SwiftUI.swiftmodule"
python3 - "$SDK" "$W/sdkfix/SwiftUI.swiftmodule/arm64-apple-ios.swiftinterface" << 'EOF'
import sys
src = sys.argv[1] + '/System/Library/Frameworks/SwiftUI.framework/Modules/SwiftUI.swiftmodule/arm64-apple-ios.swiftinterface'
s = open(src).read()
old = "Accessing Environment<\\(Value.self)>'s value outside of \\"
if s.count(old) == 1:
    s = s.replace(old, "Accessing Environment<Value>'s value outside of \\")
else:
    print('note: SwiftUI patch site not found; using the interface unchanged', file=sys.stderr)
open(sys.argv[2], 'w').write(s)
EOF

C=(-resource-dir "$W/res" -sdk "$SDK" -target $TARGET -module-cache-path "$W/mc" -I "$W/sdkfix" -I "$W/stubs")
SKIP=(-Xfrontend -experimental-skip-all-function-bodies) # dependency modules: declarations only

# 3. Third-party dependencies.
#    Crypto: `@_exported import CryptoKit` (what swift-crypto is on Apple platforms), plus the Sendable conformances
#    that CryptoKit in iOS 17+ SDKs declares and the 16.5 SDK lacks. CryptoExtras: STUB, PBKDF2 only (swift-crypto
#    Sources/CryptoExtras/Key Derivation/{KDF.swift,PBKDF2/PBKDF2.swift}).
cat > "$W/stubsrc/Crypto.swift" << 'EOF'
@_exported import CryptoKit

extension SymmetricKey: @retroactive @unchecked Sendable {}
extension SymmetricKeySize: @retroactive @unchecked Sendable {}
EOF
cat > "$W/stubsrc/CryptoExtras.swift" << 'EOF'
import Crypto
import Foundation

public enum KDF: Sendable {
    public enum Insecure: Sendable {}
}

extension KDF.Insecure {
    public struct PBKDF2: Sendable {
        public static func deriveKey<Passphrase: DataProtocol, Salt: DataProtocol>(from password: Passphrase, salt: Salt, using hashFunction: HashFunction, outputByteCount: Int, rounds: Int) throws -> SymmetricKey { fatalError() }
        public static func deriveKey<Passphrase: DataProtocol, Salt: DataProtocol>(from password: Passphrase, salt: Salt, using hashFunction: HashFunction, outputByteCount: Int, unsafeUncheckedRounds: Int) throws -> SymmetricKey { fatalError() }
        public struct HashFunction: Equatable, Hashable, Sendable {
            let rawValue: String
            public static let insecureMD5 = HashFunction(rawValue: "insecure_md5")
            public static let insecureSHA1 = HashFunction(rawValue: "insecure_sha1")
            public static let insecureSHA224 = HashFunction(rawValue: "insecure_sha224")
            public static let sha256 = HashFunction(rawValue: "sha256")
            public static let sha384 = HashFunction(rawValue: "sha384")
            public static let sha512 = HashFunction(rawValue: "sha512")
        }
    }
}
EOF
#    HTTPTypes / HTTPTypesFoundation: STUB. swift-http-types 1.8 needs `Span` (Swift 6.2 stdlib, iOS 26 runtime),
#    which the 16.5 SDK's stdlib lacks, so its sources do not typecheck here. The stub declares only what
#    TokenAuthentication uses, each signature copied from .build/checkouts/swift-http-types (HTTPRequest.swift,
#    HTTPRequest+URL.swift, HTTPResponse.swift, HTTPFields.swift, HTTPField.swift, HTTPFieldName.swift,
#    HTTPTypesFoundation/URL{Request,Response}+HTTPTypes.swift). The checks below keep it faithful: every stub
#    declaration must appear, verbatim, in those sources.
cat > "$W/stubsrc/HTTPTypes.swift" << 'EOF'
public import Foundation

public struct HTTPField: Sendable, Hashable {
    public struct Name: Sendable {
        public let rawName: String
        public let canonicalName: String
        public init?(_ name: String) { fatalError() }
    }
}
extension HTTPField.Name: Hashable {
    public func hash(into hasher: inout Hasher) { fatalError() }
    public static func == (lhs: HTTPField.Name, rhs: HTTPField.Name) -> Bool { fatalError() }
}
extension HTTPField.Name {
    public static var accept: Self { fatalError() }
    public static var authorization: Self { fatalError() }
    public static var contentType: Self { fatalError() }
    public static var retryAfter: Self { fatalError() }
}

public struct HTTPFields: Sendable {
    public init() { fatalError() }
    public subscript(name: HTTPField.Name) -> String? { get { fatalError() } set { fatalError() } }
    public subscript(values name: HTTPField.Name) -> [String] { get { fatalError() } set { fatalError() } }
}
extension HTTPFields: Hashable {
    public func hash(into hasher: inout Hasher) { fatalError() }
}
extension HTTPFields: Equatable {
    public static func == (lhs: HTTPFields, rhs: HTTPFields) -> Bool { fatalError() }
}
extension HTTPFields: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (HTTPField.Name, String)...) { fatalError() }
}

public struct HTTPRequest: Sendable, Hashable {
    public struct Method: Sendable, Hashable, RawRepresentable, LosslessStringConvertible {
        public let rawValue: String
        public init?(_ method: String) { fatalError() }
        public init?(rawValue: String) { fatalError() }
        public var description: String { fatalError() }
    }
    public var method: Method { get { fatalError() } set { fatalError() } }
    public var scheme: String? { get { fatalError() } set { fatalError() } }
    public var authority: String? { get { fatalError() } set { fatalError() } }
    public var path: String? { get { fatalError() } set { fatalError() } }
    public var headerFields: HTTPFields
    public init(method: Method, scheme: String?, authority: String?, path: String?, headerFields: HTTPFields = [:]) { fatalError() }
}
extension HTTPRequest.Method {
    public static var get: Self { fatalError() }
    public static var post: Self { fatalError() }
}
extension HTTPRequest {
    public var url: URL? { get { fatalError() } set { fatalError() } }
    public init(method: Method = .get, url: URL, headerFields: HTTPFields = [:]) { fatalError() }
}

public struct HTTPResponse: Sendable, Hashable {
    public struct Status: Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
        public let code: Int
        public let reasonPhrase: String
        public init(code: Int, reasonPhrase: String = "") { fatalError() }
        public init(integerLiteral value: Int) { fatalError() }
        public var description: String { fatalError() }
    }
    public var status: Status { get { fatalError() } set { fatalError() } }
    public var headerFields: HTTPFields
    public init(status: Status, headerFields: HTTPFields = [:]) { fatalError() }
}
extension HTTPResponse.Status {
    public static var ok: Self { fatalError() }
    public static var unauthorized: Self { fatalError() }
}
EOF
cat > "$W/stubsrc/HTTPTypesFoundation.swift" << 'EOF'
public import Foundation
public import HTTPTypes

extension URLRequest {
    public init?(httpRequest: HTTPRequest) { fatalError() }
    public var httpRequest: HTTPRequest? { fatalError() }
}
extension HTTPURLResponse {
    public convenience init?(httpResponse: HTTPResponse, url: URL) { fatalError() }
    public var httpResponse: HTTPResponse? { fatalError() }
}
EOF
# Faithfulness: each `public …` declaration line of the stubs (up to its body) occurs in swift-http-types' sources.
HTTP_SRC="$CHECKOUTS/swift-http-types/Sources"
unfaithful=0
while IFS= read -r decl; do
  grep -rqF -- "$decl" "$HTTP_SRC" || { echo "ios-typecheck: HTTPTypes stub declaration not found in swift-http-types: $decl"; unfaithful=1; }
done < <(cat "$W/stubsrc/HTTPTypes.swift" "$W/stubsrc/HTTPTypesFoundation.swift" | grep -E '^\s*(public|extension)' \
  | grep -v 'import' | sed -E 's/^\s+//; s/ \{ (fatalError\(\)|get \{ fatalError\(\) \} set \{ fatalError\(\) \}) \}$//; s/ \{$//; s/ \{\}$//')
[ $unfaithful = 0 ] || exit 2

FAIL=0
emit_dep() { # name swift-version extra-flags... -- files...
  local n=$1; shift
  local flags=()
  while [ "$1" != "--" ]; do flags+=("$1"); shift; done
  shift
  swiftc -emit-module "${C[@]}" "${SKIP[@]}" "${flags[@]}" -module-name "$n" \
    -emit-module-path "$W/stubs/$n.swiftmodule" "$@" > "$W/out/$n.dep.log" 2>&1 \
    || { echo "ios-typecheck: dependency $n did not build:"; cat "$W/out/$n.dep.log"; exit 2; }
}
emit_dep Crypto -swift-version 5 -- "$W/stubsrc/Crypto.swift"
emit_dep CryptoExtras -swift-version 5 -- "$W/stubsrc/CryptoExtras.swift"
emit_dep HTTPTypes -swift-version 6 -- "$W/stubsrc/HTTPTypes.swift"
emit_dep HTTPTypesFoundation -swift-version 6 -- "$W/stubsrc/HTTPTypesFoundation.swift"
# swift-log from source, with its package settings (declarations only: swift-frontend 6.3.1 crashes in SILGen on
# its typed-throws withLogger for this target otherwise).
mapfile -t LOG_FILES < <(find "$CHECKOUTS/swift-log/Sources/Logging" -name '*.swift' | sort)
emit_dep Logging -swift-version 6 -package-name swift_log -enable-upcoming-feature ExistentialAny \
  -enable-upcoming-feature MemberImportVisibility -enable-upcoming-feature InternalImportsByDefault \
  -enable-upcoming-feature NonisolatedNonsendingByDefault -- "${LOG_FILES[@]}"
# swift-metrics' CoreMetrics from source (the API SecretsMetrics' audit sink uses), declarations only, in Swift 5
# mode: the 16.5 SDK's _Concurrency predates what lets Swift 6 accept its `@TaskLocal static var`.
mapfile -t METRICS_FILES < <(find "$CHECKOUTS/swift-metrics/Sources/CoreMetrics" -name '*.swift' | sort)
emit_dep CoreMetrics -swift-version 5 -package-name swift_metrics \
  -enable-upcoming-feature MemberImportVisibility -- "${METRICS_FILES[@]}"

# 4. Project modules, in dependency order: a full typecheck (diagnostics in out/<Module>.log), then a
#    declarations-only module for the modules that import it.
SUMMARY=()
mod() { # name "flags" files...
  local n=$1 extra=$2; shift 2
  local flags
  read -r -a flags <<< "$extra"
  [ $# -gt 0 ] || { echo "== $n: no sources"; SUMMARY+=("$n: no sources"); FAIL=1; return; }
  swiftc -typecheck "${C[@]}" "${flags[@]}" -module-name "$n" "$@" > "$W/out/$n.log" 2>&1
  local rc=$?
  local diags errors warnings
  diags=$(grep -E '(^|: )(error|warning): ' "$W/out/$n.log" | grep -v '^ ' | sort -u)
  errors=$(grep -cE '(^|: )error: ' <<< "$diags")
  warnings=$(grep -cE '(^|: )warning: ' <<< "$diags")
  # A failed run without a diagnostic we recognize (a crash, a missing module) still counts as an error.
  [ $rc -ne 0 ] && [ "$errors" -eq 0 ] && errors=1 && diags="$diags"$'\n'"$n: swiftc exited $rc (see $W/out/$n.log)"
  echo "== $n: $errors error(s), $warnings warning(s)"
  [ -n "$diags" ] && sed 's/^/   /' <<< "$diags"
  SUMMARY+=("$n $errors/$warnings")
  [ "$errors" -eq 0 ] && [ "$warnings" -eq 0 ] || FAIL=1
  # Never let dependents typecheck against a stale module of an earlier run.
  rm -f "$W/stubs/${n%%@*}.swiftmodule"
  swiftc -emit-module "${C[@]}" "${SKIP[@]}" "${flags[@]}" -module-name "${n%%@*}" \
    -emit-module-path "$W/stubs/${n%%@*}.swiftmodule" "$@" > "$W/out/$n.emit.log" 2>&1 \
    || { echo "   (emit-module failed, see $W/out/$n.emit.log)"; FAIL=1; }
}
sources() { find "$@" -name '*.swift' | LC_ALL=C sort; }
cd "$PROJ"
# As the root package builds its targets (the settings loop at the end of Package.swift).
ROOT="-swift-version 6 -package-name main -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility -enable-upcoming-feature InferIsolatedConformances"
# The SDK as its own nested package builds it (ProntoWalletSDK/Package.swift: no InferIsolatedConformances), then as
# the root package's product; the second one is what the example app imports.
mod ProntoWalletSDK@nested "-swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility" \
  $(sources ProntoWalletSDK/Sources/ProntoWalletSDK)
mod ProntoWalletSDK "$ROOT" $(sources ProntoWalletSDK/Sources/ProntoWalletSDK)
for m in Secrets CofferSupport SecretsAudit SecretsMetrics SecretsKeychain SecretsSecretService Keychain SecretsPlatform AppSecureStorage LocalData TokenAuthentication; do
  mod $m "$ROOT" $(sources Sources/$m)
done
mod ProntoWalletExample "-swift-version 6 -parse-as-library" $(sources Examples/ProntoWalletExample)

summary=$(printf '%s, ' "${SUMMARY[@]}")
echo "ios-typecheck ($TARGET, $(basename "$SDK")) errors/warnings per module: ${summary%, }"
[ $FAIL = 0 ] && echo "ios-typecheck: clean" || echo "ios-typecheck: FAILED (logs in $W/out)"
exit $FAIL
