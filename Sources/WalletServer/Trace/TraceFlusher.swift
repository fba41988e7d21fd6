import ServiceLifecycle

/// Stores the trace events still waiting when the server stops gracefully, before the storage closes: list it after
/// ``StorageLifecycle`` (services stop in reverse order, the HTTP server and the push dispatcher first).
struct TraceFlusher: Service {
    let trace: PassEventRecorder

    func run() async throws {
        try? await gracefulShutdown()
        await trace.flush()
    }
}
