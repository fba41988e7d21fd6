import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import WalletServices

/// An `SQLDatabase` over connection pools: each query borrows a connection, and a session
/// (``withSession(_:)``) keeps one connection for its whole duration, which is what transactions need.
///
/// One mechanism for both engines. `SELECT`s borrow from the readers; every other statement and every session
/// from the writers. On SQLite that is one connection, so writes queue here instead of sleeping on SQLite's lock;
/// on PostgreSQL both are the same pool.
struct PooledSQLDatabase<Source: ConnectionPoolSource & SendableMetatype>: SQLDatabase
where Source.Connection: Sendable {
    let shared: SharedPool<Source>
    let dialect: any SQLDialect
    let logger: Logger
    let makeSQL: @Sendable (Source.Connection) -> any SQLDatabase
    /// Runs a serialized `SELECT` on a connection the engine's own way, answering `false` when it did not; `nil`
    /// runs it as any other statement.
    var runSerialized:
        (
            @Sendable (SerializedSelect.Statement, Source.Connection, @escaping @Sendable (any SQLRow) -> Void)
                async throws
                -> Bool
        )? = nil

    private static var closedError: WalletServerError { .databaseUnavailable("the database has been shut down") }
    var eventLoop: any EventLoop { shared.readers.eventLoopGroup.any() }
    var queryLogLevel: Logger.Level? { .trace }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void>
    {
        // A closed pool's event loops may be gone: answer on a loop that lives as long as the process.
        guard shared.enter() else {
            return MultiThreadedEventLoopGroup.singleton.any().makeFailedFuture(Self.closedError)
        }
        let reads = query is SQLSelect || query is SerializedSelect.Statement
        let (shared, makeSQL, logger) = (shared, makeSQL, logger)
        let plain: @Sendable () -> EventLoopFuture<Void> = {
            (reads ? shared.readers : shared.writers).withConnection(logger: logger) { connection in
                makeSQL(connection).execute(sql: query, onRow)
            }
        }
        guard let statement = query as? SerializedSelect.Statement, let runSerialized else {
            return plain().always { _ in shared.leave() }
        }
        let ran = shared.readers.withConnection(logger: logger) { connection in
            connection.eventLoop.makeFutureWithTask { try await runSerialized(statement, connection, onRow) }
        }
        // Not run its own way: as any other statement, on a connection that may be another.
        return ran.flatMap { $0 ? ran.map { _ in } : plain() }.always { _ in shared.leave() }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        guard shared.enter() else { throw Self.closedError }
        defer { shared.leave() }
        let pool = shared.writers
        let connection = try await pool.requestConnection(logger: logger).get()
        defer { pool.releaseConnection(connection, logger: logger) }
        return try await closure(makeSQL(connection))
    }
}
