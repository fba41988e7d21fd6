import Foundation
import WalletDocuments
import X509

extension DocumentVerifier {
    /// An order that passed verification.
    public typealias VerifiedOrder = VerifiedDocument<Order>

    /// Verifies a `.order` as Wallet does: every file listed in `manifest.json` with its SHA-256, no file that is not
    /// listed, and a detached signature over the manifest by the Order Type ID certificate of the order's
    /// `orderTypeIdentifier`, chaining to a trust root.
    ///
    /// - Throws: ``WalletDocumentError/verificationFailed(_:)`` naming the check that failed.
    public func verify(order archive: Data) async throws -> VerifiedOrder {
        let contents = try Self.listedFiles(
            of: archive, payload: OrderPackage.payload, digest: "SHA-256", hash: DocumentManifest.sha256)
        let order: Order
        do {
            order = try Order(json: contents.files[OrderPackage.payload]!)
        } catch {
            throw WalletDocumentError.malformedOrderJSON("order.json of a signed order cannot be parsed")
        }
        let signer = try await verifyChainedSignature(contents.signature, over: contents.manifest)
        do {
            try SigningIdentity.check(signer, orderTypeIdentifier: order.orderTypeIdentifier)
        } catch let WalletDocumentError.identityMismatch(expected, found) {
            throw WalletDocumentError.verificationFailed(.wrongSigner(expected: expected, found: found))
        }
        return VerifiedOrder(document: order, files: contents.files, signer: signer)
    }
}

extension VerifiedDocument where Document == Order {
    /// The parsed `order.json`.
    public var order: Order { document }
}
