import SQLKit
import Secrets
import WalletServices

/// A `SELECT` serialized once for a database's dialect and run with new values each time.
///
/// For the hottest reads only: on a device's `If-Modified-Since` fetch, building and escaping the SQL cost more than
/// SQLite running it (Benchmarks/RESULTS.md, "Fetches that cost no signature").
struct SerializedSelect: Sendable {
    private let sql: String
    private let bindCount: Int
    /// The name the statement is prepared under where the engine prepares it: the same for the same text.
    private let name: String

    /// The names given so far, by statement text: one per distinct text, so connections prepare each once.
    private static let names = Locked<[String: String]>([:])

    /// Serializes `query` on its database; the values it binds only hold places for ``bound(to:)``'s, in order. With
    /// `boundLimit`, the statement ends in a `LIMIT` whose value is bound last.
    init(_ query: SQLSelectBuilder, boundLimit: Bool = false) {
        var (sql, bindCount) = { ($0.sql, $0.binds.count) }(query.database.serialize(query.select))
        if boundLimit {
            var serializer = SQLSerializer(database: query.database)
            query.database.dialect.bindPlaceholder(at: bindCount + 1).serialize(to: &serializer)
            sql += " LIMIT " + serializer.sql
            bindCount += 1
        }
        (self.sql, self.bindCount) = (sql, bindCount)
        name = Self.names.withLock { names in
            if let name = names[sql] { return name }
            let name = "coffer_lookup_\(names.count + 1)"
            names[sql] = name
            return name
        }
    }

    /// The statement with `values` bound in the order the query bound its placeholders.
    func bound(to values: [any Encodable & Sendable]) -> Statement {
        precondition(values.count == bindCount, "the statement binds \(bindCount) values, not \(values.count)")
        return Statement(name: name, sql: sql, binds: values)
    }

    /// A serialized `SELECT` with its values; ``PooledSQLDatabase`` runs it on a reader like any `SELECT`, prepared
    /// on PostgreSQL (``PostgresPreparedSelect``).
    struct Statement: SQLExpression {
        let name: String
        let sql: String
        let binds: [any Encodable & Sendable]

        func serialize(to serializer: inout SQLSerializer) {
            // The placeholders are numbered from the first: the statement must be all there is.
            precondition(serializer.sql.isEmpty && serializer.binds.isEmpty, "a serialized statement nested in another")
            serializer.write(sql)
            serializer.binds.append(contentsOf: binds)
        }
    }
}
