import ArgumentParser
import Foundation
import WalletDocuments

/// `coffer pass dev-identity` and `coffer order dev-identity`: a development hierarchy, clearly not Apple's.
struct DevIdentityCommand<Kind: CommandDocumentKind>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "dev-identity",
            abstract:
                "Create a development CA, WWDR-like intermediate and \(Kind.certificateName) certificate (not Apple's).",
            discussion: """
                Writes root.pem, wwdr.pem, \(Kind.identityFileStem).pem and \(Kind.identityFileStem).p12 (the key, \
                encrypted with the passphrase from --passphrase-file, $COFFER_P12_PASSPHRASE or a prompt). What it \
                signs verifies against root.pem, not on devices.
                """)
    }

    @Argument(help: "An empty or new directory.") var directory: String
    @Option(name: .customLong(Kind.typeIdentifierOption.name), help: ArgumentHelp("The \(Kind.typeName) identifier."))
    var typeIdentifier = Kind.typeIdentifierOption.defaultValue
    @Option(help: "The team identifier.") var teamIdentifier = "DEVTEAM000"
    @Option(help: "The organization name.") var organization = "Coffer Development"
    @Option(help: "Read the .p12 passphrase from this file's first line.") var passphraseFile: String?

    func run() throws {
        let stem = Kind.identityFileStem
        let passphrase = try StoreOptions.passphrase(
            file: passphraseFile, environmentVariable: "COFFER_P12_PASSPHRASE", prompt: "Passphrase for \(stem).p12: ",
            confirming: true)
        let url = StoreOptions.absoluteURL(directory)
        try CommandFailure.mapping {
            try Kind.developmentIdentity(
                typeIdentifier: typeIdentifier, teamIdentifier: teamIdentifier, organizationName: organization
            ).write(to: url, passphrase: passphrase)
        }
        print("wrote root.pem, wwdr.pem, \(stem).pem and \(stem).p12 to \(url.path) (NOT Apple certificates)")
        print("sign:   coffer \(Kind.name) build <dir> --certificate \(url.path)/\(stem).p12 -o \(Kind.exampleArchive)")
        print("verify: coffer \(Kind.name) verify \(Kind.exampleArchive) --root \(url.path)/root.pem")
    }
}
