import CofferTestSupport
import Foundation
import Testing
import SQLKit
import WalletServer
import WalletServices
import WalletStore

/// The database engines the server tests run on: SQLite always; PostgreSQL when `COFFER_TEST_POSTGRES_URL` names a
/// server (`.ci/run` starts one on loopback and sets it).
enum Engine: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqliteFile
    case postgres

    var testDescription: String { rawValue }

    static let postgresURL = ProcessInfo.processInfo.environment["COFFER_TEST_POSTGRES_URL"]

    /// The engines available here.
    static var available: [Engine] { postgresURL == nil ? [.sqliteFile] : allCases }

    /// Migrates `database`, shutting it down if that fails.
    static func migrated(_ database: WalletDatabase) async throws -> WalletDatabase {
        do {
            try await SchemaMigrator(database: database).migrate()
            return database
        } catch {
            try await database.shutdown()
            throw error
        }
    }

    /// A fresh, migrated database; on PostgreSQL a new database per test, so tests do not see each other's rows.
    func makeDatabase(in directory: TemporaryDirectory) async throws -> WalletDatabase {
        try await Self.migrated(try WalletDatabase.open(url: try await makeDatabaseURL(in: directory)))
    }

    /// The URL of a fresh, empty database: a SQLite file in `directory`, or a new PostgreSQL database.
    func makeDatabaseURL(in directory: TemporaryDirectory) async throws -> String {
        switch self {
        case .sqliteFile:
            return WalletServerConfiguration.sqliteURL(in: directory.url)
        case .postgres:
            let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try await Self.withServer { try await $0.sql.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
            var url = URLComponents(string: Self.postgresURL!)!
            url.path = "/" + name
            return url.string!
        }
    }

    /// Runs `body` on a connection to the PostgreSQL server's own database (to create or drop databases).
    static func withServer(_ body: (WalletDatabase) async throws -> Void) async throws {
        try await WalletDatabase.open(url: postgresURL!).whileOpen(body)
    }
}
