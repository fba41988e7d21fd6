import CofferTestSupport
import Foundation
import Logging
import PostgresKit
import SQLKit
import Secrets
import Testing

@testable import WalletServices
@testable import WalletStore

@Suite(
    "On PostgreSQL the fetch's lookups are prepared once per connection, and a stale one gives way",
    .enabled(if: Engine.postgresURL != nil))
struct PostgresPreparedSelectTests {
    /// A fresh migrated PostgreSQL database, its URL and a lookup by serial number on a scratch table.
    static func withLookup(
        _ body: (WalletDatabase, SerializedSelect, PostgresConnection) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        let url = try await Engine.postgres.makeDatabaseURL(in: directory)
        try await Engine.migrated(try WalletDatabase.open(url: url)).whileOpen { database in
            try await database.sql.raw("CREATE TABLE lookup_rows (serial text PRIMARY KEY, label text)").run()
            try await database.sql.raw("INSERT INTO lookup_rows VALUES ('S1', 'one'), ('S2', 'two')").run()
            let lookup = SerializedSelect(
                database.sql.select().column("label").from("lookup_rows").where("serial", .equal, SQLBind("")))
            let configuration = try SQLPostgresConfiguration(url: url).coreConfiguration
            let connection = try await PostgresConnection.connect(
                configuration: configuration, id: 1, logger: Logger(label: "test"))
            do {
                try await body(database, lookup, connection)
            } catch {
                try? await connection.close()
                throw error
            }
            try? await connection.close()
        }
    }

    /// The labels `lookup` finds for `serial` on `connection`, prepared; `nil` when it gave way.
    static func labels(_ lookup: SerializedSelect, _ serial: String, on connection: PostgresConnection) async throws
        -> [String]?
    {
        let found = Locked<[String]>([])
        let ran = try await PostgresPreparedSelect.run(
            lookup.bound(to: [serial]), on: connection, logger: Logger(label: "test")
        ) { row in
            if let label = try? row.decode(column: "label", as: String.self) { found.withLock { $0.append(label) } }
        }
        return ran ? found.withLock { $0 } : nil
    }

    @Test("the first run prepares the statement under its name; later runs answer from it with their own values")
    func preparedOnce() async throws {
        try await Self.withLookup { _, lookup, connection in
            #expect(try await Self.labels(lookup, "S1", on: connection) == ["one"])
            #expect(try await Self.labels(lookup, "S2", on: connection) == ["two"])
            #expect(try await Self.labels(lookup, "S3", on: connection) == [])
            let statement = lookup.bound(to: ["S1"])
            let prepared = try await connection.query(
                "SELECT statement FROM pg_prepared_statements WHERE name = \(statement.name)",
                logger: Logger(label: "test")
            ).collect()
            #expect(try prepared.map { try $0.decode(String.self) } == [statement.sql])
        }
    }

    @Test("a statement of the same text gets the same name; another text another")
    func names() async throws {
        try await Self.withLookup { database, lookup, _ in
            let again = SerializedSelect(
                database.sql.select().column("label").from("lookup_rows").where("serial", .equal, SQLBind("")))
            let other = SerializedSelect(
                database.sql.select().column("serial").from("lookup_rows").where("label", .equal, SQLBind("")))
            #expect(again.bound(to: ["x"]).name == lookup.bound(to: ["x"]).name)
            #expect(other.bound(to: ["x"]).name != lookup.bound(to: ["x"]).name)
        }
    }

    @Test("a plan outdated by a schema change closes its connection instead of failing every later run")
    func outdatedPlan() async throws {
        try await Self.withLookup { database, lookup, connection in
            #expect(try await Self.labels(lookup, "S1", on: connection) == ["one"])
            try await database.sql.raw("ALTER TABLE lookup_rows ALTER COLUMN label TYPE varchar(100)").run()
            #expect(try await Self.labels(lookup, "S1", on: connection) == nil)
            #expect(connection.isClosed)
        }
    }

    @Test("a value the server refuses is that error, and the connection stays open for the next run")
    func refusedValue() async throws {
        try await Self.withLookup { _, lookup, connection async throws in
            #expect(try await Self.labels(lookup, "S1", on: connection) == ["one"])
            await #expect(throws: PSQLError.self) { try await Self.labels(lookup, "S\u{0}1", on: connection) }
            #expect(!connection.isClosed)
            #expect(try await Self.labels(lookup, "S2", on: connection) == ["two"])
        }
    }

    @Test("through the pool, the repository's lookups still answer after a schema change outdates their plans")
    func poolRecovers() async throws {
        try await Engine.postgres.withRepository { repository, database in
            let (pass, passType) = try await repository.makePass()
            let target = try #require(try await repository.provisioningTarget(passID: pass.id))
            // Every pooled connection prepares the lookup.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<32 { group.addTask { _ = try await repository.provisioningTarget(passID: pass.id) } }
                try await group.waitForAll()
            }
            try await database.sql.raw("ALTER TABLE pass_types ALTER COLUMN signing_key_path TYPE varchar(4096)")
                .run()
            for _ in 0..<32 {
                #expect(try await repository.provisioningTarget(passID: pass.id) == target)
            }
            #expect(target.passType.id == passType.id)
        }
    }
}
