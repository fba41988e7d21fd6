import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import Secrets
import SQLKit
import SQLiteKit
import WalletServices

/// The server's database: an embedded SQLite file by default, PostgreSQL when the URL names a server.
///
/// The same SQL (written once over SQLKit) runs on both. Call ``shutdown()`` when done: it closes every
/// connection (SQLiteNIO asserts in debug builds if connections outlive the process's use of them).
public final class WalletDatabase: Sendable {
    /// Which engine the database runs on.
    package enum Engine: String, Sendable {
        /// SQLite, in a file or in memory.
        case sqlite
        /// PostgreSQL.
        case postgres
    }

    /// The engine.
    package let engine: Engine
    /// The SQL interface every repository uses.
    package let sql: any SQLDatabase
    /// What error messages must not show: the URL's password.
    let credentials: [String]
    /// Tells when a pass may have changed without reading it (a SQLite file on Linux, PostgreSQL's notifications);
    /// `nil` elsewhere.
    package let changeWatch: (any DatabaseChangeWatch)?
    private let shutdownPool: @Sendable () async throws -> Void

    /// Opens the database at `url`: `sqlite:///absolute/path.sqlite`, `sqlite::memory:`, or
    /// `postgres://user:password@host:port/database` (also `postgresql://`).
    public static func open(url: String, logger: Logger = Logger(label: "coffer.database")) throws -> WalletDatabase {
        if url == "sqlite::memory:" {
            return makeSQLite(storage: .memory, logger: logger)
        }
        if url.hasPrefix("sqlite://") {
            guard let path = sqliteFilePath(of: url) else {
                throw WalletServerError.invalidDatabaseURL(
                    "a SQLite URL needs an absolute path: sqlite:///path/db.sqlite")
            }
            return makeSQLite(storage: .file(path: path), logger: logger)
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            var configuration: SQLPostgresConfiguration
            do {
                configuration = try SQLPostgresConfiguration(url: requiringTLSForRemoteHosts(url))
            } catch {
                throw WalletServerError.invalidDatabaseURL("not a postgres://user:password@host:port/database URL")
            }
            // Coffer's statements are short, and the claims' cost estimates can start a JIT compilation that takes
            // longer than the statement: https://www.postgresql.org/docs/current/jit-decision.html
            configuration.coreConfiguration.options.additionalStartupParameters.append(("jit", "off"))
            let pool = SharedPool(
                readers: EventLoopGroupConnectionPool(
                    source: PostgresConnectionSource(sqlConfiguration: configuration), maxConnectionsPerEventLoop: 4,
                    requestTimeout: .seconds(10), logger: logger, on: MultiThreadedEventLoopGroup.singleton),
                closeEventLoopGroup: false)
            var database = PooledSQLDatabase(shared: pool, dialect: PostgresDialect(), logger: logger) { connection in
                connection.sql()
            }
            database.runSerialized = { statement, connection, onRow in
                try await PostgresPreparedSelect.run(statement, on: connection, logger: logger, onRow: onRow)
            }
            let credentials = DatabaseFailure.credentials(of: url)
            let watch = PostgresChangeWatch(
                configuration: configuration.coreConfiguration, credentials: credentials, logger: logger)
            return WalletDatabase(
                engine: .postgres, sql: database, credentials: credentials, changeWatch: watch,
                shutdown: {
                    await watch.stop()
                    try await pool.close()
                })
        }
        throw WalletServerError.invalidDatabaseURL("use sqlite:///path, sqlite::memory: or postgres://…")
    }

    /// The TLS modes a PostgreSQL URL may name (`sslmode=…` and its aliases, as PostgresKit reads them).
    static let tlsModeParameters: Set<String> = ["tlsmode", "sslmode", "ssl", "tls"]

    /// `url`, asking for TLS (`sslmode=require`) when it names a host other than this machine and no TLS mode:
    /// PostgresKit's default, `prefer`, lets a network attacker strip TLS and read the password and the data. An
    /// explicit mode (`sslmode=disable` included) is the operator's choice and is kept.
    static func requiringTLSForRemoteHosts(_ url: String) -> String {
        guard var components = URLComponents(string: url), let host = components.host, !host.isEmpty,
            !NetworkHost.isLoopback(host),
            !(components.queryItems ?? []).contains(where: { tlsModeParameters.contains($0.name.lowercased()) })
        else { return url }
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "sslmode", value: "require")]
        return components.string ?? url
    }

    /// The file of a `sqlite:///path` URL; `nil` for any other database.
    static func sqliteFilePath(of url: String) -> String? {
        guard url.hasPrefix("sqlite://") else { return nil }
        let path = String(url.dropFirst("sqlite://".count))
        return path.hasPrefix("/") ? path : nil
    }

    private static func makeSQLite(storage: SQLiteConfiguration.Storage, logger: Logger) -> WalletDatabase {
        // In write-ahead-log mode readers do not wait for the writer: a file gets three reading connections and one
        // writing one. A shared-cache in-memory database locks whole tables between connections: it gets one.
        let readers: Int
        if case .file = storage { readers = 3 } else { readers = 0 }
        // A thread per connection: a connection waiting for another process's write blocks its thread, and must
        // never take the thread that another connection needs to finish.
        let threads = NIOThreadPool(numberOfThreads: readers + 1)
        threads.start()
        let source = SQLiteFileSource(
            base: SQLiteConnectionSource(
                configuration: .init(storage: storage, enableForeignKeys: true), threadPool: threads))
        let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        func pool(_ connections: Int) -> EventLoopGroupConnectionPool<SQLiteFileSource> {
            EventLoopGroupConnectionPool(
                source: source, maxConnectionsPerEventLoop: connections, requestTimeout: .seconds(30), logger: logger,
                on: eventLoops)
        }
        let writers = pool(1)
        let shared = SharedPool(
            readers: readers > 0 ? pool(readers) : writers, writers: writers, closeEventLoopGroup: true,
            threadPool: threads)
        let database = PooledSQLDatabase(shared: shared, dialect: SQLiteDialect(), logger: logger) { connection in
            connection.sql()
        }
        var changeWatch: SQLiteChangeWatch?
        if case .file(let path) = storage { changeWatch = SQLiteChangeWatch.watching(databaseAt: path) }
        return WalletDatabase(
            engine: .sqlite, sql: database, credentials: [], changeWatch: changeWatch, shutdown: shared.close)
    }

    private init(
        engine: Engine, sql: any SQLDatabase, credentials: [String], changeWatch: (any DatabaseChangeWatch)? = nil,
        shutdown: @escaping @Sendable () async throws -> Void
    ) {
        self.engine = engine
        self.sql = sql
        self.credentials = credentials
        self.changeWatch = changeWatch
        self.shutdownPool = shutdown
    }

    /// Closes every connection; afterwards every query fails at once with
    /// `WalletServerError/databaseUnavailable(_:)`. Calling it again does nothing.
    public func shutdown() async throws {
        try await shutdownPool()
    }

    /// Runs `body` in a transaction on one connection: committed if it returns, rolled back if it throws.
    ///
    /// On SQLite the transaction takes the write lock when it begins (`BEGIN IMMEDIATE`), so two transactions that
    /// read and then write cannot deadlock each other.
    public func transaction<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws
        -> R
    {
        let begin = engine == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN"
        return try await sql.withSession { session in
            try await session.raw(SQLQueryString(begin)).run()
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
