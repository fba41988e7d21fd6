import ArgumentParser
import Foundation
import WalletServer
import WalletServices
import WalletStore

extension AdminCommand {
    /// `coffer admin client`.
    struct ClientCommands: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "client", abstract: "Create and list clients (the issuer's customers).",
            subcommands: [Create.self, List.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "create", abstract: "Create a client and print its identifier.")
            @Option(help: "The client's name.") var name: String
            @Flag(help: "Print the whole record as JSON.") var json = false
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let client = try await withAdministration(server) { try await $0.createClient(name: name) }
                if json { try Output.printJSON(client, snakeCaseKeys: true) } else { print(client.id.uuidString) }
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List every client.")
            @Flag(help: "Print JSON.") var json = false
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let clients = try await withAdministration(server) { try await $0.clients() }
                if json { return try Output.printJSON(clients, snakeCaseKeys: true) }
                Output.printTable(
                    ["ID", "NAME", "CREATED"], clients.map { [$0.id.uuidString, $0.name, Output.format($0.createdAt)] })
            }
        }
    }

    /// `coffer admin api-user`.
    struct APIUserCommands: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "api-user", abstract: "Create, list and revoke API users (the tokens apps call with).",
            subcommands: [Create.self, List.self, Revoke.self])

        /// An API user as listed: never its token or the token's hash.
        struct Summary: Encodable {
            let id: UUID
            let clientID: UUID
            let name: String
            let createdAt: Date
            let revokedAt: Date?

            init(_ user: APIUser) {
                (id, clientID, name, createdAt, revokedAt) = (
                    user.id, user.clientID, user.name, user.createdAt, user.revokedAt
                )
            }
        }

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "create",
                abstract: "Create an API user and print its token, which is shown only this once.")
            @Option(help: "The client's identifier.") var client: String
            @Option(help: "A name for people.") var name = "api"
            @Flag(help: "Print JSON with the token and the API user's identifier.") var json = false
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let clientID = try identifier(client, of: "client")
                let (user, token) = try await withAdministration(server) {
                    try await $0.createAPIUser(clientID: clientID, name: name)
                }
                if json {
                    struct Created: Encodable {
                        let apiUser: Summary
                        let token: String
                    }
                    return try Output.printJSON(Created(apiUser: Summary(user), token: token), snakeCaseKeys: true)
                }
                print(token)
                Output.note("API user \(user.id); its token above is shown only now and stored only as a hash")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List a client's API users.")
            @Option(help: "The client's identifier.") var client: String
            @Flag(help: "Print JSON.") var json = false
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let clientID = try identifier(client, of: "client")
                let users = try await withAdministration(server) {
                    try await $0.apiUsers(clientID: clientID)
                }
                if json { return try Output.printJSON(users.map(Summary.init), snakeCaseKeys: true) }
                Output.printTable(
                    ["ID", "NAME", "CREATED", "REVOKED"],
                    users.map { [$0.id.uuidString, $0.name, Output.format($0.createdAt), Output.format($0.revokedAt)] })
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "revoke",
                abstract: "Revoke an API user: running servers refuse its token within 5 seconds.")
            @Argument(help: "The API user's identifier.") var id: String
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let userID = try identifier(id, of: "API user")
                try await withAdministration(server) { try await $0.revokeAPIUser(id: userID) }
                Output.note("revoked API user \(userID)")
            }
        }
    }

    /// `coffer admin user`.
    struct UserCommands: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "user", abstract: "Create and list a client's users (whose passes are account-bound).",
            subcommands: [Create.self, List.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "create", abstract: "Create a user and print its identifier.")
            @Option(help: "The client's identifier.") var client: String
            @Option(help: "The client's own reference for the user (an e-mail address, a customer number).")
            var reference: String?
            @Flag(help: "Print the whole record as JSON.") var json = false
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let clientID = try identifier(client, of: "client")
                let user = try await withAdministration(server) {
                    try await $0.createUser(clientID: clientID, externalReference: reference)
                }
                if json { try Output.printJSON(user, snakeCaseKeys: true) } else { print(user.id.uuidString) }
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List a client's users.")
            @Option(help: "The client's identifier.") var client: String
            @Flag(help: "Print JSON.") var json = false
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let clientID = try identifier(client, of: "client")
                let users = try await withAdministration(server) {
                    try await $0.users(clientID: clientID)
                }
                if json { return try Output.printJSON(users, snakeCaseKeys: true) }
                Output.printTable(
                    ["ID", "REFERENCE", "ACCOUNT HASH", "CREATED"],
                    users.map {
                        [$0.id.uuidString, $0.externalReference ?? "-", $0.accountHash, Output.format($0.createdAt)]
                    })
            }
        }
    }
}
