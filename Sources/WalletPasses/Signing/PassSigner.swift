import Foundation

/// Signs Wallet content with a ``SigningIdentity``: detached CMS SignedData, SHA-256 with RSA, a signing-time
/// attribute, carrying the Pass Type ID certificate and the WWDR intermediate.
public struct PassSigner: Sendable {
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
    /// - Throws: ``WalletPassesError/signingFailed(_:)`` when the RSA engine fails or `signingTime` is outside the
    ///   years 0 to 9999.
    public func signature(for content: Data, signingTime: Date = Date()) throws -> Data {
        try identity.cmsSigner.signature(for: content, signingTime: signingTime)
    }

    /// A detached CMS signature over a rewards pass's personalization token, whose shape ``PersonalizationToken``
    /// checked: the answer of the personalize route, which never signs anything else.
    public func signature(for token: PersonalizationToken, signingTime: Date = Date()) throws -> Data {
        try signature(for: token.signedContent, signingTime: signingTime)
    }

    /// Validates `package`, checks that the identity is for its pass type and team, and returns the signed pass.
    public func sign(_ package: PassPackage, signingTime: Date = Date()) throws -> SignedPass {
        try package.validate()
        let pass = try package.pass
        try identity.check(passTypeIdentifier: pass.passTypeIdentifier, teamIdentifier: pass.teamIdentifier)
        let manifest = try package.manifest()
        return SignedPass(
            files: package.files, manifest: manifest, signature: try signature(for: manifest, signingTime: signingTime))
    }
}

/// A signed pass: its files, `manifest.json` and `signature`, ready to be zipped as a `.pkpass`.
public struct SignedPass: Hashable, Sendable {
    /// The pass's own files.
    public let files: [String: Data]
    /// `manifest.json`.
    public let manifest: Data
    /// `signature`: detached CMS over ``manifest``.
    public let signature: Data

    /// The `.pkpass` archive (ZIP).
    public func pkpass() throws -> Data {
        var entries = files
        entries["manifest.json"] = manifest
        entries["signature"] = signature
        return try PassArchive.zip(entries)
    }

    /// A `.pkpasses` bundle: several `.pkpass` archives in one ZIP, added to Wallet together.
    public static func bundle(_ passes: [SignedPass]) throws -> Data {
        var entries: [String: Data] = [:]
        for (index, pass) in passes.enumerated() {
            entries["pass-\(index + 1).pkpass"] = try pass.pkpass()
        }
        return try PassArchive.zip(entries)
    }
}
