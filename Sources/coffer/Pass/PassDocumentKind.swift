import Foundation
import WalletDocuments
import WalletPasses

/// `coffer pass`'s words and steps in the commands it shares with `coffer order`.
enum PassDocumentKind: CommandDocumentKind {
    typealias Package = PassPackage

    static let name = "pass"
    static let archiveExtension = ".pkpass"
    static let buildHelp = (
        abstract: "Sign a pass folder or Pass Designer template into a .pkpass (what Apple's signpass does).",
        discussion: """
        The folder holds pass.json, icon.png and other images, and optional xx.lproj folders; a \
        .pkpasstemplate (a folder or a ZIP of one) is read the same way. The checks of `coffer pass lint` run \
        first: errors stop the build, warnings are printed.
        """,
        source: "The pass folder or .pkpasstemplate."
    )
    static let verifyAbstract =
        "Check a .pkpass: every manifest hash, no unlisted file, and the signature against a root."
    static let exampleArchive = "pass.pkpass"

    static func verify(_ archive: Data, with verifier: DocumentVerifier) async throws -> (
        summary: String, signer: String
    ) {
        let verified = try await verifier.verify(pkpass: archive)
        return ("\(verified.pass.passTypeIdentifier) serial \(verified.pass.serialNumber)", verified.signerSubject)
    }

    static func developmentIdentity(typeIdentifier: String, teamIdentifier: String, organizationName: String)
        throws -> DevelopmentIdentity
    {
        try DevelopmentIdentity.generate(
            passTypeIdentifier: typeIdentifier, teamIdentifier: teamIdentifier, organizationName: organizationName)
    }
}
