import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

/// The server's database: an embedded SQLite file by default, PostgreSQL when the URL names a server.
///
/// The same SQL (written once over SQLKit) runs on both. Call ``shutdown()`` when done: it closes every
/// connection (SQLiteNIO asserts in debug builds if connections outlive the process's use of them).
public final class WalletDatabase: Sendable {
    /// Which engine the database runs on.
    public enum Engine: String, Sendable {
        /// SQLite, in a file or in memory.
        case sqlite
        /// PostgreSQL.
        case postgres
    }

    /// The engine.
    public let engine: Engine
    /// The SQL interface every repository uses.
    public let sql: any SQLDatabase
    private let shutdownPool: @Sendable () async throws -> Void

    /// Opens the database at `url`: `sqlite:///absolute/path.sqlite`, `sqlite::memory:`, or
    /// `postgres://user:password@host:port/database` (also `postgresql://`).
    public static func open(url: String, logger: Logger = Logger(label: "coffer.database")) throws -> WalletDatabase {
        if url == "sqlite::memory:" {
            return makeSQLite(storage: .memory, logger: logger)
        }
        if url.hasPrefix("sqlite://") {
            let path = String(url.dropFirst("sqlite://".count))
            guard path.hasPrefix("/") else {
                throw WalletServerError.invalidDatabaseURL(
                    "a SQLite URL needs an absolute path: sqlite:///path/db.sqlite")
            }
            return makeSQLite(storage: .file(path: path), logger: logger)
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            let configuration: SQLPostgresConfiguration
            do {
                configuration = try SQLPostgresConfiguration(url: url)
            } catch {
                throw WalletServerError.invalidDatabaseURL("not a postgres://user:password@host:port/database URL")
            }
            let pool = SharedPool(
                EventLoopGroupConnectionPool(
                    source: PostgresConnectionSource(sqlConfiguration: configuration), maxConnectionsPerEventLoop: 4,
                    requestTimeout: .seconds(10), logger: logger, on: MultiThreadedEventLoopGroup.singleton))
            let database = PooledSQLDatabase(shared: pool, dialect: PostgresDialect(), logger: logger) { connection in
                connection.sql()
            }
            return WalletDatabase(engine: .postgres, sql: database) { try await pool.pool.shutdownAsync() }
        }
        throw WalletServerError.invalidDatabaseURL("use sqlite:///path, sqlite::memory: or postgres://…")
    }

    /// The URL of a SQLite file in `directory`.
    public static func sqliteURL(in directory: URL) -> String {
        "sqlite://" + directory.appendingPathComponent("coffer-wallet.sqlite").path
    }

    private static func makeSQLite(storage: SQLiteConfiguration.Storage, logger: Logger) -> WalletDatabase {
        // One connection: SQLite has one writer at a time, and a session then owns the database for a transaction.
        let pool = SharedPool(
            EventLoopGroupConnectionPool(
                source: SQLiteConnectionSource(configuration: .init(storage: storage, enableForeignKeys: true)),
                maxConnectionsPerEventLoop: 1, requestTimeout: .seconds(30), logger: logger,
                on: MultiThreadedEventLoopGroup(numberOfThreads: 1)))
        let database = PooledSQLDatabase(shared: pool, dialect: SQLiteDialect(), logger: logger) { connection in
            connection.sql()
        }
        return WalletDatabase(engine: .sqlite, sql: database) {
            try await pool.pool.shutdownAsync()
            try await pool.pool.eventLoopGroup.shutdownGracefully()
        }
    }

    private init(engine: Engine, sql: any SQLDatabase, shutdown: @escaping @Sendable () async throws -> Void) {
        self.engine = engine
        self.sql = sql
        self.shutdownPool = shutdown
    }

    /// Closes every connection.
    public func shutdown() async throws {
        try await shutdownPool()
    }

    /// Runs `body` in a transaction on one connection: committed if it returns, rolled back if it throws.
    public func transaction<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws
        -> R
    {
        try await sql.withSession { session in
            try await session.raw("BEGIN").run()
            do {
                let result = try await body(session)
                try await session.raw("COMMIT").run()
                return result
            } catch {
                try? await session.raw("ROLLBACK").run()
                throw error
            }
        }
    }
}
