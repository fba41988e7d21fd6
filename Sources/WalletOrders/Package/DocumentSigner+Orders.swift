import Foundation
import WalletDocuments

extension DocumentSigner {
    /// Validates `package` (``OrderLint``), checks that the identity is the Order Type ID certificate of its
    /// `orderTypeIdentifier`, and returns the signed order: the same detached CMS as a pass's, over a SHA-256
    /// manifest.
    ///
    /// - Throws: ``WalletDocumentError/invalidOrder(_:)`` for an order with errors,
    ///   ``WalletDocumentError/identityMismatch(expected:found:)`` for another type's certificate,
    ///   ``WalletDocumentError/tooLarge(what:limit:)`` for an archive of 5 MB or more.
    public func sign(_ package: OrderPackage, signingTime: Date = Date()) throws -> SignedOrder {
        try package.validate()
        let order = try package.order
        try SigningIdentity.check(identity.certificate, orderTypeIdentifier: order.orderTypeIdentifier)
        let manifest = package.manifest()
        return try SignedOrder(
            files: package.files, manifest: manifest, signature: try signature(for: manifest, signingTime: signingTime))
    }
}
