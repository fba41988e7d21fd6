import Logging
import NIOCore
import PostgresKit
import SQLKit

/// Runs a ``SerializedSelect`` on PostgreSQL as a named prepared statement, parsed and planned once per connection:
/// planned afresh, the fetch's joined lookups cost PostgreSQL more than running them (Benchmarks/RESULTS.md, "Bulk
/// changes").
///
/// PostgresNIO prepares a statement on first use on each connection and keeps it, or its failure, until the connection
/// closes. A statement the server refuses (its plan outdated by a schema change, say) closes the connection, so that
/// the pool opens a fresh one, and runs once unprepared, which reports the real error if there is one; a refused
/// value is reported as it is, since a caller could otherwise make the pool reconnect at will.
struct PostgresPreparedSelect: PostgresPreparedStatement {
    typealias Row = PostgresRow

    /// The statement being run: PostgresNIO reads a prepared statement's name and text from its type, and only
    /// ``run(_:on:logger:onRow:)`` knows them, for the duration of its call.
    @TaskLocal private static var running = (name: "", sql: "")
    static var name: String { running.name }
    static var sql: String { running.sql }

    private let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }

    /// Runs `statement` on `connection`, prepared, calling `onRow` with each row once all have come;
    /// `false`, having called nothing, when the caller must run it as a plain query: one of its values has no direct
    /// PostgreSQL encoding, or the server refused the prepared statement.
    static func run(
        _ statement: SerializedSelect.Statement, on connection: PostgresConnection, logger: Logger,
        onRow: @escaping @Sendable (any SQLRow) -> Void
    ) async throws -> Bool {
        var bindings = PostgresBindings(capacity: statement.binds.count)
        for value in statement.binds {
            // The values PostgresKit encodes the same way (its "fast path"); anything else goes through it.
            guard let value = value as? any PostgresThrowingDynamicTypeEncodable else { return false }
            try bindings.append(value, context: .default)
        }
        var rows: [PostgresRow] = []
        do {
            try await $running.withValue((statement.name, statement.sql)) {
                for try await row in try await connection.execute(Self(bindings: bindings), logger: logger) {
                    rows.append(row)
                }
            }
        } catch let error as PSQLError where error.code == .server {
            // A value the server refused says nothing of the statement or the connection.
            if DatabaseErrorKind(error) == .invalidValue { throw error }
            try? await connection.close()
            return false
        }
        for row in rows { onRow(row.sql()) }
        return true
    }
}
