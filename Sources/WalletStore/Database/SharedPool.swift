import Secrets
import Logging
import NIOCore
import NIOPosix
import SQLiteKit
import WalletServices

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
    /// Whether ``close()`` was called, and how many statements and sessions are running.
    private let state = Locked((closed: false, running: 0))
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
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Counts a statement or session in, unless the pool is closed; each `true` must be followed by ``leave()``.
    func enter() -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.running += 1
            return true
        }
    }

    /// Counts a statement or session out.
    func leave() {
        state.withLock { $0.running -= 1 }
    }

    /// Closes every connection, once, after the statements and sessions still running end (10 s at most: a
    /// connection closed under a running statement crashes the SQLite driver's threads); later calls do nothing.
    func close() async throws {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        let deadline = ContinuousClock.now + .seconds(10)
        while state.withLock({ $0.running }) > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
        if writers !== readers { try await writers.shutdownAsync() }
        try await readers.shutdownAsync()
        // The threads first: work still queued on them is failed on its event loop, which must still run.
        try await threadPool?.shutdownGracefully()
        if closeEventLoopGroup { try await readers.eventLoopGroup.shutdownGracefully() }
    }
}
