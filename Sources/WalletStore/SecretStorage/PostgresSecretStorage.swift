import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import Secrets
import WalletServices

/// The rows of a secret store in PostgreSQL (`secret_store_header`, `secret_items`; schema migration 4), read and
/// written synchronously for ``PostgresSecretsBackend``.
///
/// It has a connection of its own, on one of the shared event loops: secrets are read rarely (once per identity and
/// reload), and a replica should not hold more of the database's connections than it needs. Each call is one statement, waited for
/// with a deadline: a database that is down, unreachable or does not answer in time is
/// `SecretsError.unavailable`, never a hang. Calls block their thread, so they refuse to run on an event loop.
///
/// `EventLoopGroupConnectionPool` is not marked `Sendable` but is built to be shared: its mutable state is behind an
/// `NIOLock` and each per-loop pool works on its own event loop (see ``SharedPool``). `closed` is a locked box.
final class PostgresSecretStorage: SealedRowStorage, @unchecked Sendable {
    let location: String
    private let pool: EventLoopGroupConnectionPool<PostgresConnectionSource>
    private let timeout: TimeAmount
    private let closed = Locked(false)

    /// Connects lazily to the database at `url` (a `postgres://` URL, TLS required for remote hosts as for the
    /// server's database).
    init(url: String, timeout: Duration, logger: Logger) throws {
        var configuration: SQLPostgresConfiguration
        do {
            configuration = try SQLPostgresConfiguration(url: WalletDatabase.requiringTLSForRemoteHosts(url))
        } catch {
            throw WalletServerError.invalidDatabaseURL("not a postgres://user:password@host:port/database URL")
        }
        let nanoseconds =
            Int64(timeout.components.seconds) * 1_000_000_000
            + timeout.components.attoseconds / 1_000_000_000
        self.timeout = .nanoseconds(max(nanoseconds, 1_000_000))
        configuration.coreConfiguration.options.connectTimeout = self.timeout
        let components = URLComponents(string: url)
        let database = components?.path.drop { $0 == "/" } ?? ""
        self.location =
            "the PostgreSQL database \(database.isEmpty ? "(default)" : String(database)) on "
            + "\(components?.host ?? "?"):\(components?.port ?? 5432)"
        self.pool = EventLoopGroupConnectionPool(
            source: PostgresConnectionSource(sqlConfiguration: configuration), maxConnectionsPerEventLoop: 1,
            requestTimeout: self.timeout, logger: logger, on: MultiThreadedEventLoopGroup.singleton.next())
    }

    deinit {
        // The pool must be shut down before it goes away; its shutdown keeps it alive until the connections close.
        if !closed.withLock({ $0 }) { pool.shutdownGracefully { _ in } }
    }

    /// Closes the connections; afterwards every call throws `unavailable`. Calling it again does nothing.
    func close() async {
        let first = closed.withLock { wasClosed in
            defer { wasClosed = true }
            return !wasClosed
        }
        guard first else { return }
        try? await pool.shutdownAsync()
    }

    // MARK: SealedRowStorage

    func readHeader() throws -> Data? {
        try perform("reading the store header") { db in
            db.raw("SELECT header FROM secret_store_header WHERE id = 1").all().flatMapThrowing { rows in
                try rows.first?.decode(column: "header", as: Data.self)
            }
        }
    }

    func createHeader(_ header: Data) throws -> Data {
        try perform("creating the store header") { db in
            db.raw(
                """
                INSERT INTO secret_store_header (id, header, created_at) VALUES (1, \(bind: header), \
                \(bind: Int64(Date().timeIntervalSince1970))) ON CONFLICT (id) DO NOTHING
                """
            ).run()
        }
        guard let stored = try readHeader() else {
            throw SecretsError.unavailable("the store header in \(location) vanished just after it was created")
        }
        return stored
    }

    func readItem(named name: String) throws -> Data? {
        try perform("reading an item") { db in
            db.raw("SELECT item FROM secret_items WHERE name = \(bind: name)").all().flatMapThrowing { rows in
                try rows.first?.decode(column: "item", as: Data.self)
            }
        }
    }

    func writeItem(_ item: Data, named name: String) throws {
        try perform("writing an item") { db in
            db.raw(
                """
                INSERT INTO secret_items (name, item, updated_at) VALUES (\(bind: name), \(bind: item), \
                \(bind: Int64(Date().timeIntervalSince1970))) ON CONFLICT (name) DO UPDATE SET item = EXCLUDED.item, \
                updated_at = EXCLUDED.updated_at
                """
            ).run()
        }
    }

    func deleteItem(named name: String) throws -> Bool {
        try perform("deleting an item") { db in
            db.raw("DELETE FROM secret_items WHERE name = \(bind: name) RETURNING name").all().map { !$0.isEmpty }
        }
    }

    func itemPrefixes(length: Int) throws -> [(name: String, prefix: Data)] {
        let rows = try perform("listing items") { db in
            db.raw(
                "SELECT name, substring(item FROM 1 FOR CAST(\(bind: length) AS integer)) AS prefix FROM secret_items ORDER BY name"
            ).all().flatMapThrowing { rows in
                try rows.map {
                    Item(
                        name: try $0.decode(column: "name", as: String.self),
                        bytes: try $0.decode(column: "prefix", as: Data.self))
                }
            }
        }
        return rows.map { ($0.name, $0.bytes) }
    }

    private struct Item: Sendable {
        var name: String
        var bytes: Data
    }

    // MARK: Running statements

    private struct TimedOut: Error {}

    /// Runs one statement on a pooled connection and waits for it, at most ``timeout`` (plus the wait for a
    /// connection, bounded by the same time).
    private func perform<Result: Sendable>(
        _ what: String, _ statement: @escaping @Sendable (any SQLDatabase) -> EventLoopFuture<Result>
    ) throws -> Result {
        guard MultiThreadedEventLoopGroup.currentEventLoop == nil else {
            throw SecretsError.unavailable(
                "\(what) in \(location) was asked for on an event loop thread, which must never block; call the "
                    + "secret store from another thread")
        }
        guard !closed.withLock({ $0 }) else {
            throw SecretsError.unavailable("\(what) in \(location): the store was closed")
        }
        let loop = pool.eventLoopGroup.any()
        let promise = loop.makePromise(of: Result.self)
        let deadline = loop.scheduleTask(in: timeout) { promise.fail(TimedOut()) }
        pool.withConnection(on: loop) { connection in statement(connection.sql()) }.hop(to: loop).whenComplete {
            deadline.cancel()
            promise.completeWith($0)
        }
        do {
            return try promise.futureResult.wait()
        } catch {
            throw unavailable(what, error)
        }
    }

    /// What a failed statement means to a caller, without the server's message (which may quote values).
    private func unavailable(_ what: String, _ error: any Error) -> SecretsError {
        if error is TimedOut {
            return .unavailable("\(what) in \(location): the database did not answer in time; check that it is up")
        }
        if let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] {
            if DatabaseErrorKind(error) == .undefinedTable {
                return .unavailable(
                    "\(what) in \(location): the secret store's tables are missing; start `coffer serve` or run any "
                        + "`coffer admin` command once against this database to migrate it")
            }
            return .unavailable("\(what) in \(location) failed (SQLSTATE \(state))")
        }
        if let error = error as? PSQLError {
            return .unavailable("\(what) in \(location) failed (\(error.code)); check that the database is up")
        }
        if error is ConnectionPoolTimeoutError || error is ConnectionPoolError {
            return .unavailable("\(what) in \(location): no connection to the database; check that it is up")
        }
        return .unavailable("\(what) in \(location) failed (\(type(of: error)))")
    }
}
