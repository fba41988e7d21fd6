import ArgumentParser
import Foundation
import WalletDocuments

/// `coffer pass build` and `coffer order build`: sign a folder into an archive, after its lint.
struct BuildCommand<Kind: CommandDocumentKind>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "build", abstract: Kind.buildHelp.abstract, discussion: Kind.buildHelp.discussion)
    }

    @Argument(help: ArgumentHelp(Kind.buildHelp.source)) var source: String
    @OptionGroup var identity: IdentityOptions
    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the \(Kind.archiveExtension).")) var output: String

    func run() throws {
        let signer = DocumentSigner(identity: try identity.load())
        let archive = try CommandFailure.mapping {
            try Kind.signedArchive(of: StoreOptions.absoluteURL(source), by: signer) { Output.note("\($0)") }
        }
        do {
            try archive.write(to: StoreOptions.absoluteURL(output), options: .withoutOverwriting)
        } catch {
            throw CommandFailure("cannot write \(output): it exists or the folder is not writable", status: .failure)
        }
        print("signed \(output) (\(archive.count) bytes)")
    }
}
