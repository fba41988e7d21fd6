import Secrets
import Logging
import NIOCore
import NIOPosix
import SQLiteKit

/// The connection pools of one database, shared between tasks: one for reads, one for writes and transactions
/// (the same pool when the engine has no single-writer rule), refusing work once closed.
///
/// `EventLoopGroupConnectionPool` is not marked `Sendable`, but it is built to be shared: its only mutable state
/// (`didShutdown`) is guarded by an `NIOLock`, its per-loop pools are created once and never replaced, and each
/// per-loop pool hops onto its own event loop (`eventLoop.execute`) before touching its state. Vapor shares one
/// such pool between every request in the same way.
final class SharedPool<Source: ConnectionPoolSource>: @unchecked Sendable {
    /// The connections plain `SELECT`s use.
    let readers: EventLoopGroupConnectionPool<Source>
    /// The connections every other statement, and every session, uses.
    let writers: EventLoopGroupConnectionPool<Source>
    private let closed = Locked(false)
    private let closeEventLoopGroup: Bool
    private let threadPool: NIOThreadPool?

    /// Shares the pools; ``close()`` also shuts down their event loop group when `closeEventLoopGroup` is set, and
    /// `threadPool`, the connections' own threads, when given.
    init(
        readers: EventLoopGroupConnectionPool<Source>, writers: EventLoopGroupConnectionPool<Source>? = nil,
        closeEventLoopGroup: Bool, threadPool: NIOThreadPool? = nil
    ) {
        self.readers = readers
        self.writers = writers ?? readers
        self.closeEventLoopGroup = closeEventLoopGroup
        self.threadPool = threadPool
    }

    /// Whether ``close()`` has been called.
    var isClosed: Bool { closed.withLock { $0 } }

    /// Closes every connection, once; later calls do nothing.
    func close() async throws {
        let first = closed.withLock { wasClosed in
            defer { wasClosed = true }
            return !wasClosed
        }
        guard first else { return }
        if writers !== readers { try await writers.shutdownAsync() }
        try await readers.shutdownAsync()
        if closeEventLoopGroup { try await readers.eventLoopGroup.shutdownGracefully() }
        try await threadPool?.shutdownGracefully()
    }
}
