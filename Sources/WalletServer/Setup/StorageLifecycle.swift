import ServiceLifecycle

/// Closes a server's storage when the server shuts down gracefully.
///
/// Hummingbird stops its services in reverse order, so this one, listed before the HTTP server, closes the
/// database only after the last request has been answered.
struct StorageLifecycle: Service {
    let storage: WalletServerStorage

    func run() async throws {
        // Returns at graceful shutdown, throws when cancelled; either way the storage is closed.
        try? await gracefulShutdown()
        try await storage.shutdown()
    }
}
