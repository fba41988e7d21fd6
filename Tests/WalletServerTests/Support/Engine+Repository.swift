import CofferTestSupport
import WalletServer

extension Engine {
    /// Runs `body` against a fresh migrated database of this engine, shutting it down afterwards.
    func withRepository(_ body: (SQLWalletRepository, WalletDatabase) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        let database = try await makeDatabase(in: directory)
        do {
            try await body(SQLWalletRepository(database: database), database)
        } catch {
            try await database.shutdown()
            throw error
        }
        try await database.shutdown()
    }
}
