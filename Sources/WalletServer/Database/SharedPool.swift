import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLiteKit

/// A connection pool shared between tasks, which refuses work once it is closed.
///
/// `EventLoopGroupConnectionPool` is not marked `Sendable`, but it is built to be shared: its only mutable state
/// (`didShutdown`) is guarded by an `NIOLock`, its per-loop pools are created once and never replaced, and each
/// per-loop pool hops onto its own event loop (`eventLoop.execute`) before touching its state. Vapor shares one
/// such pool between every request in the same way.
final class SharedPool<Source: ConnectionPoolSource>: @unchecked Sendable {
    let pool: EventLoopGroupConnectionPool<Source>
    private let closed = NIOLockedValueBox(false)
    private let closeEventLoopGroup: Bool
    private let threadPool: NIOThreadPool?

    /// Shares `pool`; ``close()`` also shuts down the pool's own event loop group when `closeEventLoopGroup` is set,
    /// and `threadPool`, the connections' own threads, when given.
    init(_ pool: EventLoopGroupConnectionPool<Source>, closeEventLoopGroup: Bool, threadPool: NIOThreadPool? = nil) {
        self.pool = pool
        self.closeEventLoopGroup = closeEventLoopGroup
        self.threadPool = threadPool
    }

    /// Whether ``close()`` has been called.
    var isClosed: Bool { closed.withLockedValue { $0 } }

    /// Closes every connection, once; later calls do nothing.
    func close() async throws {
        let first = closed.withLockedValue { wasClosed in
            defer { wasClosed = true }
            return !wasClosed
        }
        guard first else { return }
        try await pool.shutdownAsync()
        if closeEventLoopGroup { try await pool.eventLoopGroup.shutdownGracefully() }
        try await threadPool?.shutdownGracefully()
    }
}
