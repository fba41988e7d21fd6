import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit

/// An `SQLDatabase` over a connection pool: each query borrows a connection, and a session
/// (``withSession(_:)``) keeps one connection for its whole duration, which is what transactions need.
///
/// One mechanism for both engines: SQLite (a pool of one connection, so sessions serialize writers) and
/// PostgreSQL.
struct PooledSQLDatabase<Source: ConnectionPoolSource>: SQLDatabase where Source.Connection: Sendable {
    let shared: SharedPool<Source>
    let dialect: any SQLDialect
    let logger: Logger
    let makeSQL: @Sendable (Source.Connection) -> any SQLDatabase

    private var pool: EventLoopGroupConnectionPool<Source> { shared.pool }
    private static var closedError: WalletServerError { .databaseUnavailable("the database has been shut down") }
    var eventLoop: any EventLoop { pool.eventLoopGroup.any() }
    var queryLogLevel: Logger.Level? { .trace }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void>
    {
        // A closed pool's event loops may be gone: answer on a loop that lives as long as the process.
        guard !shared.isClosed else {
            return MultiThreadedEventLoopGroup.singleton.any().makeFailedFuture(Self.closedError)
        }
        return pool.withConnection(logger: logger) { connection in
            makeSQL(connection).execute(sql: query, onRow)
        }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        guard !shared.isClosed else { throw Self.closedError }
        let connection = try await pool.requestConnection(logger: logger).get()
        defer { pool.releaseConnection(connection, logger: logger) }
        return try await closure(makeSQL(connection))
    }
}
