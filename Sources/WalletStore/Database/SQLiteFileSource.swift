import Logging
import NIOCore
import SQLiteKit
import WalletServices

/// SQLite connections that wait (up to ``busyTimeoutMilliseconds``) for a write in progress elsewhere (another
/// process, such as `coffer admin` beside `coffer serve`) instead of spinning.
///
/// SQLiteNIO installs a busy handler that retries at once, forever; `PRAGMA busy_timeout` replaces it with
/// SQLite's own sleeping back-off and a limit, after which the statement fails (and the request answers 503).
///
/// Every commit is synced (`PRAGMA synchronous = FULL`, spelled out rather than left to the build's default): the
/// server answers a write only once it is on disk, and commits concurrent writes together to sync less often.
struct SQLiteFileSource: ConnectionPoolSource {
    /// How long a statement waits for the write lock before it fails.
    static let busyTimeoutMilliseconds = 10_000

    let base: SQLiteConnectionSource

    func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteConnection> {
        base.makeConnection(logger: logger, on: eventLoop).flatMap { connection in
            connection.query("PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds)")
                .flatMap { _ in connection.query("PRAGMA synchronous = FULL") }.map { _ in connection }
                .flatMapError { error in connection.close().flatMapThrowing { throw error } }
        }
    }
}
