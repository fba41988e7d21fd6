import ArgumentParser
import Foundation
import WalletDocuments

/// `coffer pass verify` and `coffer order verify`: check an archive's manifest and signature against a root.
struct VerifyCommand<Kind: CommandDocumentKind>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "verify", abstract: Kind.verifyAbstract,
            discussion: "Exits 3 when a check fails, naming the check.")
    }

    @Argument(help: ArgumentHelp("The \(Kind.archiveExtension) file.")) var file: String
    @Option(
        help: ArgumentHelp(
            "The trust root certificate (Apple Root CA, or root.pem of `coffer \(Kind.name) dev-identity`)."))
    var root: String

    func run() async throws {
        let rootCertificate = try CommandFailure.mapping {
            try SigningIdentity.certificate(from: try IdentityOptions.read(root, what: "root"), role: "the root")
        }
        let data = try IdentityOptions.read(file, what: Kind.archiveExtension)
        do {
            let verified = try await Kind.verify(data, with: DocumentVerifier(trustRoots: [rootCertificate]))
            print("verified: \(verified.summary)")
            print("signed by: \(verified.signer)")
        } catch let error as WalletDocumentError {
            throw CommandFailure(error)
        }
    }
}
