import SQLKit
import WalletServices

extension SQLSelectBuilder {
    /// Selects the columns of `row`'s table, qualified by the table's name and named as they are in the table.
    func columns<Row: TableRow>(of row: Row.Type) -> Self {
        Row.CodingKeys.allCases.reduce(self) { query, key in query.column(Row.column(key), as: key.stringValue) }
    }

    /// Selects the columns of `row`'s table as `table__column`, to be read with `decode(model:prefix:)` and
    /// ``TableRow/prefix`` from a join.
    func prefixedColumns<Row: TableRow>(of row: Row.Type) -> Self {
        Row.CodingKeys.allCases.reduce(self) { query, key in
            query.column(Row.column(key), as: Row.prefix + key.stringValue)
        }
    }
}

extension SQLDatabase {
    /// An `INSERT` of `rows` into their table, every column given (`nil` as `NULL`); `rows` must not be empty.
    func insert<Row: TableRow>(_ rows: [Row]) throws -> SQLInsertBuilder {
        try insert(into: Row.table).models(rows, nilEncodingStrategy: .asNil)
    }
}

extension SQLRow {
    /// The row of `Row`'s table that a join selected with `SQLKit/SQLSelectBuilder/prefixedColumns(of:)`.
    func decode<Row: TableRow>(prefixed row: Row.Type) throws -> Row {
        try decode(model: Row.self, prefix: Row.prefix)
    }
}
