import Foundation

/// The errors of the `WalletPasses` module.
public enum WalletDocumentError: Error, Hashable, Sendable {
    /// The pass has errors Wallet would reject (``PassLint``); each finding names its key or file.
    case invalidPass([LintFinding])
    /// `pass.json` cannot be parsed.
    case malformedPassJSON(String)
    /// The order has errors Wallet would reject (``OrderLint``); each finding names its key or file.
    case invalidOrder([LintFinding])
    /// `order.json` cannot be parsed.
    case malformedOrderJSON(String)
    /// A file path in a package is unsafe or not allowed (absolute, `..`, hidden, reserved).
    case invalidFilePath(String, reason: String)
    /// A file or archive is larger than allowed.
    case tooLarge(what: String, limit: Int)
    /// A certificate cannot be read.
    case unreadableCertificate(String)
    /// A private key cannot be read (or the passphrase is wrong).
    case unreadableKey(String)
    /// The private key does not belong to the certificate.
    case keyDoesNotMatchCertificate
    /// A certificate that cannot sign passes Wallet accepts (expired, without Apple's pass-signing usage, issued by
    /// another intermediate); the reason says what to do.
    case unusableCertificate(String)
    /// A pass type or team identifier Apple's developer portal would refuse; the reason says what one looks like.
    case invalidIdentifier(String)
    /// A localized text or a language's `pass.strings` that cannot be used; the reason says what is wrong.
    case invalidLocalization(String)
    /// The signing certificate is for another pass type or team.
    case identityMismatch(expected: String, found: String)
    /// Creating a signature failed.
    case signingFailed(String)
    /// The RSA signing engine asked for (``RSASigningEngine``, `COFFER_RSA_ENGINE`) cannot be used here: the reason
    /// says why and what to install or set.
    case signingEngineUnavailable(String)
    /// The data is not a readable ZIP archive.
    case malformedArchive(String)
    /// A personalization token is not the shape Wallet sends, so it is not signed; the reason says why.
    case invalidPersonalizationToken(String)
    /// A `.pkpass` or `.order` failed verification; the reason says which check.
    case verificationFailed(VerificationFailure)
}

/// Which check of a `.pkpass` or `.order` failed.
public enum VerificationFailure: Hashable, Sendable, CustomStringConvertible {
    /// A required file (`pass.json`, `manifest.json`, `signature`) is missing.
    case missingRequiredFile(String)
    /// `manifest.json` is not a JSON object of file names to hex digests.
    case malformedManifest(String)
    /// A file's digest (SHA-1 in a pass, SHA-256 in an order) does not match its manifest entry.
    case hashMismatch(String)
    /// The manifest lists a file that is not in the archive.
    case missingFile(String)
    /// The archive has a file that the manifest does not list.
    case unlistedFile(String)
    /// The signature is not a valid detached CMS signature over the manifest.
    case invalidSignature(String)
    /// The signer's certificate does not chain to the given trust root.
    case untrustedSigner(String)
    /// The signer chains to the trust root but is not the certificate of the pass's (or issuer data's)
    /// `passTypeIdentifier` and `teamIdentifier`, or of the order's `orderTypeIdentifier`.
    case wrongSigner(expected: String, found: String)

    /// What failed, naming the file.
    public var description: String {
        switch self {
        case .missingRequiredFile(let name): return "the archive has no \(name)"
        case .malformedManifest(let reason): return "manifest.json is malformed: \(reason)"
        case .hashMismatch(let name): return "\(name) does not match its digest in manifest.json"
        case .missingFile(let name): return "manifest.json lists \(name), which the archive lacks"
        case .unlistedFile(let name): return "\(name) is in the archive but not in manifest.json"
        case .invalidSignature(let reason): return "the signature is not valid for the signed content: \(reason)"
        case .untrustedSigner(let reason): return "the signer does not chain to the trust root: \(reason)"
        case .wrongSigner(let expected, let found):
            return "the signer is not the signing certificate of \(expected): it is for \(found)"
        }
    }
}

extension WalletDocumentError: CustomStringConvertible, LocalizedError {
    /// A message that says what is wrong and what to do; it never contains key material.
    public var description: String {
        switch self {
        case .invalidPass(let findings):
            return "the pass is not valid: " + findings.map { "\($0.path): \($0.message)" }.joined(separator: "; ")
        case .malformedPassJSON(let reason): return "pass.json cannot be read: \(reason)"
        case .invalidOrder(let findings):
            return "the order is not valid: " + findings.map { "\($0.path): \($0.message)" }.joined(separator: "; ")
        case .malformedOrderJSON(let reason): return "order.json cannot be read: \(reason)"
        case .invalidFilePath(let path, let reason):
            return "file '\(path)' is not allowed in a pass or an order: \(reason)"
        case .tooLarge(let what, let limit): return "\(what) is larger than \(limit) bytes"
        case .unreadableCertificate(let reason): return "the certificate cannot be read: \(reason)"
        case .unreadableKey(let reason): return "the private key cannot be read: \(reason)"
        case .keyDoesNotMatchCertificate:
            return "the private key does not belong to the certificate: give the key of this Pass Type ID certificate"
        case .identityMismatch(let expected, let found):
            return "the signing certificate is for \(found), not \(expected)"
        case .unusableCertificate(let reason): return "the certificate cannot be used: \(reason)"
        case .invalidIdentifier(let reason): return reason
        case .invalidLocalization(let reason): return reason
        case .signingFailed(let reason): return "signing failed: \(reason)"
        case .signingEngineUnavailable(let reason): return "the RSA signing engine is unavailable: \(reason)"
        case .malformedArchive(let reason): return "the archive cannot be read: \(reason)"
        case .invalidPersonalizationToken(let reason): return "the personalization token is refused: \(reason)"
        case .verificationFailed(let failure): return "verification failed: \(failure)"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
