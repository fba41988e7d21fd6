import Foundation
import Secrets

/// OpenSSL's libcrypto (3.0 or later) and the few functions Coffer's RSA signer calls, found at run time.
///
/// Loading at run time (`dlopen`) means building Coffer needs no `-dev` package and no system-library target: where
/// libcrypto is missing (or older than 3.0) signatures are made with swift-crypto instead (see
/// ``RSASigningEngine``). The signatures below are those of OpenSSL 3.0's headers; the types OpenSSL keeps opaque
/// (`EVP_PKEY *`, `EVP_PKEY_CTX *`, `EVP_MD *`, `ENGINE *`) are `OpaquePointer`.
///
/// `@unchecked Sendable`: every stored property is a `let` holding a C function's address, fixed for the life of
/// the process (the library is never closed once loaded).
final class LibCrypto: @unchecked Sendable {
    /// The files `dlopen` tries, in order, unless ``libraryVariable`` names another.
    static let defaultLibraries = ["libcrypto.so.3", "libcrypto.so"]
    /// The environment variable that names the library to load instead of ``defaultLibraries`` (a path, or a file
    /// name the dynamic loader looks up).
    static let libraryVariable = "COFFER_LIBCRYPTO"
    /// The oldest `OPENSSL_VERSION_NUMBER` accepted: 3.0.0 (the `EVP_PKEY_get_*` functions are 3.0's).
    static let minimumVersion: UInt = 0x3000_0000

    /// `EVP_PKEY_RSA` (`NID_rsaEncryption`).
    static let rsaKeyType: CInt = 6
    /// `RSA_PKCS1_PADDING`.
    static let pkcs1Padding: CInt = 1

    typealias VersionNumber = @convention(c) () -> UInt
    typealias DecodePrivateKey =
        @convention(c) (
            UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, Int
        ) -> OpaquePointer?
    typealias KeyFree = @convention(c) (OpaquePointer?) -> Void
    typealias KeyInteger = @convention(c) (OpaquePointer?) -> CInt
    typealias ContextNew = @convention(c) (OpaquePointer?, OpaquePointer?) -> OpaquePointer?
    typealias ContextFree = @convention(c) (OpaquePointer?) -> Void
    typealias SignInit = @convention(c) (OpaquePointer?) -> CInt
    typealias SetPadding = @convention(c) (OpaquePointer?, CInt) -> CInt
    typealias SetDigest = @convention(c) (OpaquePointer?, OpaquePointer?) -> CInt
    typealias DigestGetter = @convention(c) () -> OpaquePointer?
    typealias Sign =
        @convention(c) (
            OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?, UnsafePointer<UInt8>?, Int
        ) -> CInt
    typealias ErrorGet = @convention(c) () -> UInt
    typealias ErrorString = @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void
    typealias ErrorClear = @convention(c) () -> Void

    /// `OpenSSL_version_num`.
    let versionNumber: VersionNumber
    /// `d2i_AutoPrivateKey`: a private key from DER (PKCS#1 or PKCS#8), its type found from the data.
    let decodePrivateKey: DecodePrivateKey
    /// `EVP_PKEY_free`.
    let keyFree: KeyFree
    /// `EVP_PKEY_get_base_id`.
    let keyBaseID: KeyInteger
    /// `EVP_PKEY_get_bits`.
    let keyBits: KeyInteger
    /// `EVP_PKEY_get_size`: the largest signature the key makes, in bytes.
    let keySize: KeyInteger
    /// `EVP_PKEY_CTX_new`.
    let contextNew: ContextNew
    /// `EVP_PKEY_CTX_free`.
    let contextFree: ContextFree
    /// `EVP_PKEY_sign_init`.
    let signInit: SignInit
    /// `EVP_PKEY_CTX_set_rsa_padding`.
    let setRSAPadding: SetPadding
    /// `EVP_PKEY_CTX_set_signature_md`.
    let setSignatureDigest: SetDigest
    /// `EVP_sha256`.
    let sha256: DigestGetter
    /// `EVP_PKEY_sign`.
    let sign: Sign
    /// `ERR_get_error`.
    let errorGet: ErrorGet
    /// `ERR_error_string_n`.
    let errorString: ErrorString
    /// `ERR_clear_error`.
    let errorClear: ErrorClear
    /// The `OPENSSL_VERSION_NUMBER` of the library loaded.
    let version: UInt

    /// The process's libcrypto, loaded on first use: the library, or why it could not be loaded.
    static let shared: Result<LibCrypto, WalletDocumentError> = load(
        ProcessInfo.processInfo.environment[libraryVariable].map { [$0] } ?? defaultLibraries)

    /// Loads the first of `libraries` that opens and resolves every function the signer calls.
    ///
    /// - Returns: ``WalletDocumentError/signingEngineUnavailable(_:)`` naming the package to install when no library
    ///   opens, or naming the function when the library is too old to have it.
    static func load(_ libraries: [String]) -> Result<LibCrypto, WalletDocumentError> {
        DynamicLibrary.open(firstOf: libraries) { library throws(DynamicLibraryError) in try LibCrypto(library) }
            .mapError { failure in
                .signingEngineUnavailable(
                    "OpenSSL's libcrypto 3 could not be loaded (\(failure)); install it to sign with OpenSSL (Debian "
                        + "and Ubuntu: apt-get install libssl3; Fedora: dnf install openssl-libs), or leave "
                        + "\(RSASigningEngine.environmentVariable) unset to sign with swift-crypto")
            }
    }

    private init(_ library: DynamicLibrary) throws(DynamicLibraryError) {
        func function<Function>(_ symbol: String, as type: Function.Type) throws(DynamicLibraryError) -> Function {
            try library.function(symbol, as: type)
        }
        versionNumber = try function("OpenSSL_version_num", as: VersionNumber.self)
        version = versionNumber()
        guard version >= Self.minimumVersion else {
            throw DynamicLibraryError(reasons: [
                "\(library.name) is OpenSSL \(String(version >> 28)).\(String((version >> 20) & 0xFF)), older than 3.0"
            ])
        }
        decodePrivateKey = try function("d2i_AutoPrivateKey", as: DecodePrivateKey.self)
        keyFree = try function("EVP_PKEY_free", as: KeyFree.self)
        keyBaseID = try function("EVP_PKEY_get_base_id", as: KeyInteger.self)
        keyBits = try function("EVP_PKEY_get_bits", as: KeyInteger.self)
        keySize = try function("EVP_PKEY_get_size", as: KeyInteger.self)
        contextNew = try function("EVP_PKEY_CTX_new", as: ContextNew.self)
        contextFree = try function("EVP_PKEY_CTX_free", as: ContextFree.self)
        signInit = try function("EVP_PKEY_sign_init", as: SignInit.self)
        setRSAPadding = try function("EVP_PKEY_CTX_set_rsa_padding", as: SetPadding.self)
        setSignatureDigest = try function("EVP_PKEY_CTX_set_signature_md", as: SetDigest.self)
        sha256 = try function("EVP_sha256", as: DigestGetter.self)
        sign = try function("EVP_PKEY_sign", as: Sign.self)
        errorGet = try function("ERR_get_error", as: ErrorGet.self)
        errorString = try function("ERR_error_string_n", as: ErrorString.self)
        errorClear = try function("ERR_clear_error", as: ErrorClear.self)
    }

    /// Empties this thread's OpenSSL error queue and returns its first entry as text (OpenSSL's reason strings name
    /// the library, function and reason; they never hold key material).
    func drainErrors() -> String {
        let first = errorGet()
        errorClear()
        guard first != 0 else { return "no reason given" }
        var buffer = [CChar](repeating: 0, count: 256)
        errorString(first, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
