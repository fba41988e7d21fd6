import Foundation

/// Signs Wallet documents and other content with a ``SigningIdentity``: detached CMS SignedData, SHA-256 with RSA, a signing-time
/// attribute, carrying the Pass Type ID certificate and the WWDR intermediate.
public struct DocumentSigner: Sendable {
    /// The identity that signs.
    public let identity: SigningIdentity

    /// Creates a signer.
    public init(identity: SigningIdentity) {
        self.identity = identity
    }

    /// A detached CMS signature (DER) over exactly `content`.
    ///
    /// The identity's signer has its certificates, signer identifier and framing encoded once; each signature adds
    /// only the signed attributes (contentType, signingTime, messageDigest) and one RSA signature, on the identity's
    /// ``SigningIdentity/signingEngine``.
    ///
    /// - Throws: ``WalletDocumentError/signingFailed(_:)`` when the RSA engine fails or `signingTime` is outside the
    ///   years 0 to 9999.
    public func signature(for content: Data, signingTime: Date = Date()) throws -> Data {
        try identity.cmsSigner.signature(for: content, signingTime: signingTime)
    }
}
