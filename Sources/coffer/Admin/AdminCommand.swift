import ArgumentParser
import Foundation
import Logging
import WalletServer
import WalletServices
import WalletStore

/// `coffer admin`: the provisioning server's records, from the shell.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Manage the provisioning server's clients, API users, users, pass types, tags and passes.",
        discussion: """
            Works on the same data directory and database as `coffer serve` (--data-dir, --database-url), also \
            while it runs. Create commands print the new record's identifier (an API user's token) on standard \
            output, so that scripts can capture it; --json prints the whole record.
            """,
        subcommands: [
            ClientCommands.self, APIUserCommands.self, UserCommands.self, PassTypeCommands.self, TagCommands.self,
            PassCommands.self, SeedDemo.self,
        ])
}

extension AdminCommand {
    /// Opens the server's storage for one admin command, with notes (such as a new key file) on standard error.
    static func withAdministration<Result>(
        _ server: ServerOptions, _ body: (WalletAdministration) async throws -> Result
    ) async throws -> Result {
        LogFormat.text.bootstrap(level: .notice, to: .standardError)
        let logger = Logger(label: "coffer.admin")
        return try await server.withStorage(try server.configuration(), logger: logger) { storage in
            try await body(WalletAdministration(storage: storage, logger: logger))
        }
    }

    /// Parses a record identifier given on the command line.
    static func identifier(_ text: String, of what: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else {
            throw CommandFailure("'\(text)' is not a \(what) identifier (a UUID)", status: .usage)
        }
        return id
    }
}
