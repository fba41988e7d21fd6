import CofferTestSupport
import WalletServer
import WalletServices
import WalletStore

extension Engine {
    /// Runs `body` against a fresh migrated database of this engine, shutting it down afterwards.
    func withRepository(_ body: (SQLWalletRepository, WalletDatabase) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        try await makeDatabase(in: directory).whileOpen { try await body(SQLWalletRepository(database: $0), $0) }
    }
}
