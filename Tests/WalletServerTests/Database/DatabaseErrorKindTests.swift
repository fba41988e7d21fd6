import Foundation
import SQLKit
import Testing

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("Driver errors are classified by the engine's error codes")
struct DatabaseErrorKindTests {
    /// The error `statement` throws, or `nil` when it succeeds.
    static func error(of statement: () async throws -> Void) async -> (any Error)? {
        do {
            try await statement()
            return nil
        } catch {
            return error
        }
    }

    @Test("a repeated primary key is a unique violation", arguments: Engine.available)
    func uniqueViolation(_ engine: Engine) async throws {
        try await engine.withRepository { _, database in
            let id = UUID().uuidString
            let insert = {
                try await database.sql.insert(into: "clients").columns("id", "name", "created_at")
                    .values(SQLBind(id), SQLBind("Acme"), SQLBind(Int64(0))).run()
            }
            try await insert()
            let error = try #require(await Self.error(of: insert))
            #expect(DatabaseErrorKind(error) == .uniqueViolation)
        }
    }

    @Test("a reference to a missing row is a foreign-key violation", arguments: Engine.available)
    func foreignKeyViolation(_ engine: Engine) async throws {
        try await engine.withRepository { _, database in
            let error = try #require(
                await Self.error {
                    try await database.sql.insert(into: "users")
                        .columns("id", "client_id", "account_hash", "created_at")
                        .values(SQLBind(UUID().uuidString), SQLBind(UUID().uuidString), SQLBind("h"), SQLBind(Int64(0)))
                        .run()
                })
            #expect(DatabaseErrorKind(error) == .foreignKeyViolation)
        }
    }

    @Test(
        "a missing table is named as one on PostgreSQL, and is another failure on SQLite", arguments: Engine.available)
    func undefinedTable(_ engine: Engine) async throws {
        try await engine.withRepository { _, database in
            let error = try #require(
                await Self.error { _ = try await database.sql.select().column("*").from("no_such_table").all() })
            #expect(DatabaseErrorKind(error) == (engine == .postgres ? .undefinedTable : .other))
        }
    }

    @Test(
        "a NUL character in text is an invalid value on PostgreSQL, and is stored on SQLite",
        arguments: Engine.available)
    func invalidValue(_ engine: Engine) async throws {
        try await engine.withRepository { repository, database in
            let error = await Self.error {
                try await database.sql.insert(into: "clients").columns("id", "name", "created_at")
                    .values(SQLBind(UUID().uuidString), SQLBind("A\u{0}B"), SQLBind(Int64(0))).run()
            }
            #expect(error.map { DatabaseErrorKind($0) } == (engine == .postgres ? .invalidValue : nil))
            if engine == .postgres {
                // Through the repository: the caller's fault, typed, not the database being away.
                let thrown = await Self.error { _ = try await repository.createClient(name: "A\u{0}B") }
                guard case WalletServerError.invalidArgument? = thrown else {
                    Issue.record("expected invalidArgument, got \(String(describing: thrown))")
                    return
                }
            }
        }
    }

    @Test("an error that is not a driver's is another failure")
    func otherError() {
        #expect(DatabaseErrorKind(WalletServerError.notFound("x")) == .other)
        #expect(DatabaseErrorKind(CancellationError()) == .other)
    }
}
