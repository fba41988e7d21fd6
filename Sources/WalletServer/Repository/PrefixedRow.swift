import SQLKit

/// A view of a joined row that shows only the columns whose names start with a prefix, without it: the columns of
/// `tags` selected as `tags__id`, `tags__client_id`, … read as `id`, `client_id`, …
struct PrefixedRow: SQLRow {
    let row: any SQLRow
    let prefix: String

    var allColumns: [String] {
        row.allColumns.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    func contains(column: String) -> Bool { row.contains(column: prefix + column) }

    func decodeNil(column: String) throws -> Bool { try row.decodeNil(column: prefix + column) }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        try row.decode(column: prefix + column, as: type)
    }
}
