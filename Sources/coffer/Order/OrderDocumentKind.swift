import Foundation
import WalletDocuments
import WalletOrders

/// `coffer order`'s words and steps in the commands it shares with `coffer pass`.
enum OrderDocumentKind: CommandDocumentKind {
    typealias Package = OrderPackage

    static let name = "order"
    static let archiveExtension = ".order"
    static let buildHelp = (
        abstract: "Sign an order folder into a .order: SHA-256 manifest, detached signature, ZIP.",
        discussion: """
        The folder holds order.json, the images it names and optional xx.lproj folders with order.strings. \
        The checks of `coffer order lint` run first: errors stop the build, warnings are printed. The \
        certificate must be the Order Type ID certificate of the order's orderTypeIdentifier.
        """,
        source: "The order folder (or an unsigned or signed .order, which is signed anew)."
    )
    static let verifyAbstract =
        "Check a .order: every SHA-256 in the manifest, no unlisted file, the signature against a root."
    static let exampleArchive = "shop.order"

    static func verify(_ archive: Data, with verifier: DocumentVerifier) async throws -> (
        summary: String, signer: String
    ) {
        let verified = try await verifier.verify(order: archive)
        return (
            "\(verified.order.orderTypeIdentifier) order \(verified.order.orderIdentifier)", verified.signerSubject
        )
    }

    static func developmentIdentity(typeIdentifier: String, teamIdentifier: String, organizationName: String)
        throws -> DevelopmentIdentity
    {
        try DevelopmentIdentity.generate(
            orderTypeIdentifier: typeIdentifier, teamIdentifier: teamIdentifier, organizationName: organizationName)
    }
}
