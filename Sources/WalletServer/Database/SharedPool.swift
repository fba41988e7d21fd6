import Logging
import NIOCore
import SQLiteKit

/// A connection pool shared between tasks.
///
/// `EventLoopGroupConnectionPool` is not marked `Sendable`, but it is built to be shared: its only mutable state
/// (`didShutdown`) is guarded by an `NIOLock`, its per-loop pools are created once and never replaced, and each
/// per-loop pool hops onto its own event loop (`eventLoop.execute`) before touching its state. Vapor shares one
/// such pool between every request in the same way.
final class SharedPool<Source: ConnectionPoolSource>: @unchecked Sendable {
    let pool: EventLoopGroupConnectionPool<Source>

    init(_ pool: EventLoopGroupConnectionPool<Source>) {
        self.pool = pool
    }
}
