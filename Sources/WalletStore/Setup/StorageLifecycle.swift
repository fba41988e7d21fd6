import ServiceLifecycle
import WalletServices

/// Closes a server's storage when the server shuts down gracefully.
///
/// Hummingbird stops its services in reverse order, so this one, listed before the HTTP server, closes the
/// database only after the last request has been answered.
package struct StorageLifecycle: Service {
    let storage: WalletServerStorage

    /// Creates the service that closes `storage`.
    package init(storage: WalletServerStorage) {
        self.storage = storage
    }

    package func run() async throws {
        // Returns at graceful shutdown, throws when cancelled; either way the storage is closed.
        try? await gracefulShutdown()
        // When the group is cancelled (the server could not start), every service stops at once: the closing runs
        // in a task of its own, which the cancellation does not reach, so that it still waits for the statements
        // other services have running.
        let storage = storage
        try await Task { try await storage.shutdown() }.value
    }
}
