import SQLKit
import WalletServices

extension WalletDatabase: WebServiceKeyLock {
    /// Runs `body` in a transaction that holds PostgreSQL's advisory lock 7260112, or SQLite's write lock.
    package func withWebServiceKeyLock<Result: Sendable>(
        _ body:
            @escaping @Sendable (_ passesCarryTokens: @escaping @Sendable () async throws -> Bool) async throws
            -> Result
    ) async throws -> Result {
        let engine = engine
        return try await transaction { db in
            if engine == .postgres { try await db.raw("SELECT pg_advisory_xact_lock(7260112)").run() }
            return try await body {
                try await db.select().column("id").from("apple_passes")
                    .where("authentication_salt", .isNot, SQLLiteral.null).limit(1).first() != nil
            }
        }
    }
}
