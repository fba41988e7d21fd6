import Foundation

/// The RSA implementation that makes a ``SigningIdentity``'s signatures.
///
/// Both make the same PKCS#1 v1.5 signatures (the scheme is deterministic, so the same key signs the same bytes
/// identically); they differ in speed. OpenSSL 3's libcrypto, loaded at run time where it is installed, uses the
/// CPU's AVX-512 IFMA instructions for RSA, which BoringSSL does not (`Benchmarks/RESULTS.md`).
/// Coffer never needs OpenSSL to build: without it, identities sign with swift-crypto.
///
/// Set `COFFER_RSA_ENGINE` to `openssl` or `swift-crypto` to force one (``environmentVariable``); an identity's
/// ``SigningIdentity/using(_:)`` picks one for that identity alone.
public enum RSASigningEngine: String, Sendable, CaseIterable, CustomStringConvertible {
    /// OpenSSL 3's libcrypto (`libcrypto.so.3`, or the file `COFFER_LIBCRYPTO` names), loaded with `dlopen`.
    case openSSL = "openssl"
    /// swift-crypto's `_RSA.Signing.PrivateKey` (BoringSSL on Linux, Security on Apple platforms).
    case swiftCrypto = "swift-crypto"

    /// The environment variable that forces an engine: `openssl` or `swift-crypto`.
    public static let environmentVariable = "COFFER_RSA_ENGINE"

    /// The engine's name, as ``environmentVariable`` spells it.
    public var description: String { rawValue }

    /// Whether this engine can sign in this process (OpenSSL: whether libcrypto 3 loaded).
    public var isAvailable: Bool {
        switch self {
        case .swiftCrypto: return true
        case .openSSL: return (try? LibCrypto.shared.get()) != nil
        }
    }

    /// The engine new identities use: the one ``environmentVariable`` names, else OpenSSL when libcrypto loads,
    /// else swift-crypto.
    ///
    /// - Throws: ``WalletDocumentError/signingEngineUnavailable(_:)`` when the variable names no engine, or names
    ///   OpenSSL and libcrypto cannot be loaded.
    public static var preferred: RSASigningEngine {
        get throws(WalletDocumentError) {
            try requested.get() ?? (RSASigningEngine.openSSL.isAvailable ? .openSSL : .swiftCrypto)
        }
    }

    /// What ``environmentVariable`` asks for, read once: an engine, `nil` when unset or empty, or why its value is
    /// not an engine.
    static let requested: Result<RSASigningEngine?, WalletDocumentError> = parse(
        ProcessInfo.processInfo.environment[environmentVariable])

    /// Reads a value of ``environmentVariable``.
    static func parse(_ value: String?) -> Result<RSASigningEngine?, WalletDocumentError> {
        guard let value, !value.isEmpty else { return .success(nil) }
        guard let engine = RSASigningEngine(rawValue: value.lowercased()) else {
            return .failure(
                .signingEngineUnavailable(
                    "\(environmentVariable) is '\(value)': set it to "
                        + allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ") + ", or unset it"))
        }
        return .success(engine)
    }
}
