import ServiceLifecycle

/// Stores the trace events still waiting when the server stops gracefully, before the storage closes: list it after
/// `StorageLifecycle` (services stop in reverse order, the HTTP server and the push dispatcher first).
package struct TraceFlusher: Service {
    let trace: PassEventRecorder

    /// Creates the service that flushes `trace`.
    package init(trace: PassEventRecorder) {
        self.trace = trace
    }

    package func run() async throws {
        try? await gracefulShutdown()
        await trace.flush()
    }
}
