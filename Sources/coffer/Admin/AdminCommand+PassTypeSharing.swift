import ArgumentParser
import Foundation
import WalletServer
import WalletServices
import WalletStore

extension AdminCommand.PassTypeCommands {
    /// The options that name a pass type and a client.
    struct Sharing: ParsableArguments {
        @Option(help: "The pass type's identifier.") var passType: String
        @Option(help: "The client's identifier.") var client: String

        /// The two identifiers, parsed.
        func identifiers() throws -> (passType: UUID, client: UUID) {
            (
                try AdminCommand.identifier(passType, of: "pass type"),
                try AdminCommand.identifier(client, of: "client")
            )
        }
    }

    /// `coffer admin pass-type share`.
    struct Share: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "share", abstract: "Let a client issue passes under a pass type.",
            discussion: """
                The management API, issuer data and web links refuse a pass type that is not shared with the \
                caller's client, so that one client cannot sign passes under another's Pass Type ID.
                """)
        @OptionGroup var sharing: Sharing
        @OptionGroup var server: ServerOptions

        func run() async throws {
            let (passType, client) = try sharing.identifiers()
            try await AdminCommand.withAdministration(server) {
                try await $0.sharePassType(passTypeID: passType, clientID: client)
            }
        }
    }

    /// `coffer admin pass-type unshare`.
    struct Unshare: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unshare", abstract: "Stop a client from issuing passes under a pass type.",
            discussion: "Passes already issued stay as they are; the client gets no new issuer data for them.")
        @OptionGroup var sharing: Sharing
        @OptionGroup var server: ServerOptions

        func run() async throws {
            let (passType, client) = try sharing.identifiers()
            try await AdminCommand.withAdministration(server) {
                try await $0.unsharePassType(passTypeID: passType, clientID: client)
            }
        }
    }
}
