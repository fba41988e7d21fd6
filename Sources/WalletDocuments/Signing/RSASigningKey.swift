import Crypto
import CryptoExtras
import Foundation

/// An identity's RSA private key on one ``RSASigningEngine``: it signs SHA-256 digests with PKCS#1 v1.5.
enum RSASigningKey: Sendable {
    /// The key inside OpenSSL's libcrypto.
    case openSSL(OpenSSLRSAKey)
    /// The key in swift-crypto.
    case swiftCrypto(_RSA.Signing.PrivateKey)

    /// Loads `key` on `engine`, using `libcrypto` for OpenSSL.
    ///
    /// - Throws: ``WalletDocumentError/signingEngineUnavailable(_:)`` when OpenSSL is asked for and `libcrypto` did
    ///   not load; ``WalletDocumentError/unreadableKey(_:)`` when OpenSSL cannot read the key.
    init(
        _ key: _RSA.Signing.PrivateKey, engine: RSASigningEngine,
        libcrypto: Result<LibCrypto, WalletDocumentError> = LibCrypto.shared
    ) throws(WalletDocumentError) {
        switch engine {
        case .swiftCrypto:
            self = .swiftCrypto(key)
        case .openSSL:
            self = .openSSL(try OpenSSLRSAKey(derRepresentation: key.derRepresentation, library: try libcrypto.get()))
        }
    }

    /// The engine that signs.
    var engine: RSASigningEngine {
        switch self {
        case .openSSL: return .openSSL
        case .swiftCrypto: return .swiftCrypto
        }
    }

    /// The length of every signature, in bytes.
    var signatureSize: Int {
        switch self {
        case .openSSL(let key): return key.signatureSize
        case .swiftCrypto(let key): return (key.keySizeInBits + 7) / 8
        }
    }

    /// Signs `digest` (PKCS#1 v1.5), writing exactly ``signatureSize`` bytes to `output`.
    func sign(_ digest: SHA256.Digest, into output: UnsafeMutableRawBufferPointer) throws(WalletDocumentError) {
        switch self {
        case .openSSL(let key):
            var failure: WalletDocumentError?
            digest.withUnsafeBytes { bytes in
                do throws(WalletDocumentError) { try key.sign(sha256: bytes, into: output) } catch { failure = error }
            }
            if let failure { throw failure }
        case .swiftCrypto(let key):
            let signature: _RSA.Signing.RSASignature
            do {
                signature = try key.signature(for: digest, padding: .insecurePKCS1v1_5)
            } catch {
                throw .signingFailed("swift-crypto could not sign (\(String(describing: type(of: error))))")
            }
            let raw = signature.rawRepresentation
            guard raw.count == output.count else {
                throw .signingFailed("swift-crypto made a \(raw.count)-byte signature, not \(output.count) bytes")
            }
            raw.copyBytes(to: output)
        }
    }
}
