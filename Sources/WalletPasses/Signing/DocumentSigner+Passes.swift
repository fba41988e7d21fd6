import Foundation
import WalletDocuments

extension DocumentSigner {
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
