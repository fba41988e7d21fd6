import ArgumentParser
import Foundation
import WalletServer
import WalletServices

extension AdminCommand.PassTypeCommands {
    /// `coffer admin pass-type google`.
    struct GoogleIssuerCommands: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "google",
            abstract: "Set, show or remove the Google Wallet issuer a pass type's passes are also issued under.",
            discussion: """
                The issuer ID is the number the Google Pay & Wallet console shows; the service account is the \
                JSON key file of a Google Cloud service account that the console lets manage passes. The key is \
                kept in the server's secret store, never in the database, and never printed.
                """,
            subcommands: [Set.self, Show.self, Remove.self])

        struct Set: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "set", abstract: "Set the pass type's Google issuer and service account key.")
            @Argument(help: "The pass type: its identifier (UUID) or pass type identifier.") var passType: String
            @Option(help: "The Google Wallet issuer ID.") var issuerID: String
            @Option(help: "The service account's JSON key file.") var serviceAccount: String
            @Flag(help: "Google allowlisted the issuer for merchantLocations: send the passes' locations.")
            var merchantLocations = false
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let key = try IdentityOptions.read(serviceAccount, what: "service account key")
                let issuer = try await AdminCommand.withAdministration(server) { administration in
                    let named = try await administration.passType(named: passType)
                    return try await administration.setGoogleIssuer(
                        passTypeID: named.id, issuerID: issuerID, serviceAccount: key,
                        mayUseMerchantLocations: merchantLocations)
                }
                try Output.printJSON(issuer)
            }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show", abstract: "Show the pass type's Google issuer and service account, not its key.")
            @Argument(help: "The pass type: its identifier (UUID) or pass type identifier.") var passType: String
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let issuer = try await AdminCommand.withAdministration(server) { administration in
                    try await administration.googleIssuer(
                        passTypeID: try await administration.passType(named: passType).id)
                }
                guard let issuer else {
                    throw CommandFailure("the pass type has no Google Wallet issuer", status: .notFound)
                }
                try Output.printJSON(issuer)
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "remove",
                abstract: "Stop issuing the pass type to Google Wallet, and delete its service account key.")
            @Argument(help: "The pass type: its identifier (UUID) or pass type identifier.") var passType: String
            @OptionGroup var server: ServerOptions

            func run() async throws {
                try await AdminCommand.withAdministration(server) { administration in
                    try await administration.removeGoogleIssuer(
                        passTypeID: try await administration.passType(named: passType).id)
                }
                Output.note("removed the Google Wallet issuer of \(passType)")
            }
        }
    }
}
