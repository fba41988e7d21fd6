import ArgumentParser
import Foundation
import Secrets
import WalletDocuments
import WalletPasses

/// `coffer pass`: build, sign and verify Apple Wallet passes.
struct PassCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pass",
        abstract: "Build, sign and verify Apple Wallet passes and issuer data.",
        subcommands: [
            BuildCommand<PassDocumentKind>.self, Lint.self, Google.self, VerifyCommand<PassDocumentKind>.self,
            IssuerData.self, DevIdentityCommand<PassDocumentKind>.self, ImportIdentity.self,
        ]
    )
}

extension PassCommand {
    /// `coffer pass issuer-data`.
    struct IssuerData: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "issuer-data",
            abstract: "Sign account-binding data and print {\"issuer_data\", \"signature\"} for the iOS API.")

        @OptionGroup var identity: IdentityOptions
        @Option(help: "The session identifier the callback will carry.") var session: String
        @Option(help: "The callback URL the device posts the binding to.") var callback: String
        @Option(help: "The relying party identifier (default: the callback URL's host).") var relyingParty: String?
        @Option(help: "The account's stable hash.") var accountHash: String
        @Option(help: "The issuer name the user sees (default: the certificate's organization).")
        var displayableName: String?

        func run() throws {
            let identity = try identity.load()
            guard let passType = identity.passTypeIdentifier, let team = identity.teamIdentifier else {
                throw CommandFailure("the certificate names no pass type (UID) or team (OU)", status: .failure)
            }
            guard let callbackURL = URL(string: callback),
                callbackURL.scheme == "https" || callbackURL.scheme == "http",
                let host = callbackURL.host
            else { throw CommandFailure("--callback must be an http(s) URL", status: .usage) }
            let binding = IssuerBindingData(
                relyingPartyIdentifier: relyingParty ?? host, accountHash: accountHash, sessionIdentifier: session,
                callbackURL: callback, passTypeIdentifier: passType, teamIdentifier: team,
                displayableName: displayableName ?? identity.organizationName ?? passType)
            let signed = try CommandFailure.mapping { try DocumentSigner(identity: identity).sign(binding) }
            try Output.printJSON(signed)
        }
    }

    /// `coffer pass import-identity`.
    struct ImportIdentity: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-identity",
            abstract: "Keep a signing identity (certificate, key, WWDR) in Coffer's encrypted store.",
            discussion: """
                Afterwards `--identity <path>` replaces --certificate/--key/--wwdr, and the key file can be deleted. \
                The store is unlocked with $COFFER_PASSPHRASE (or a prompt) and created if needed.
                """)

        @Argument(help: "Where to keep it in the store, for example wallet/pass-types/ticket.") var path: String
        @OptionGroup var source: IdentityOptions

        func run() throws {
            guard source.identity == nil else {
                throw CommandFailure("import from --certificate, not --identity", status: .usage)
            }
            try CommandFailure.mapping { try SecretPath.validate(path: path) }
            let identity = try source.load()
            let store = try StoreOptions.parse(source.store.map { ["--store", $0] } ?? []).openStore(create: true)
            try CommandFailure.mapping { try identity.save(to: store, at: path) }
            print("stored \(identity.passTypeIdentifier ?? "the identity") at '\(path)'")
        }
    }
}
