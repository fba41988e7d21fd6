import WalletServer
import WalletServices
import WalletStore

extension WalletDatabase {
    /// Runs `body` with this database, then shuts the database down, whether `body` throws or not.
    func whileOpen<Result>(_ body: (WalletDatabase) async throws -> Result) async throws -> Result {
        let result: Result
        do {
            result = try await body(self)
        } catch {
            try await shutdown()
            throw error
        }
        try await shutdown()
        return result
    }
}
