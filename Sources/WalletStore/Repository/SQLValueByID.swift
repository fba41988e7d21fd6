import SQLKit
import WalletServices

/// `CASE "id" WHEN ? THEN ? … END`: a column's new value for each of several rows, so that one `UPDATE … WHERE id IN
/// (…)` writes different values to many rows (a batch of issuances or bindings) on SQLite and PostgreSQL alike.
struct SQLValueByID: SQLExpression {
    /// Each row's identifier with the value it gets.
    let values: [(id: String, value: any Encodable & Sendable)]

    /// The value `value` gives each of `rows`, for the row `id` names.
    init<Row>(_ rows: [Row], id: (Row) -> String, value: (Row) -> any Encodable & Sendable) {
        values = rows.map { (id($0), value($0)) }
    }

    func serialize(to serializer: inout SQLSerializer) {
        serializer.write("CASE ")
        SQLIdentifier("id").serialize(to: &serializer)
        for (id, value) in values {
            serializer.write(" WHEN ")
            serializer.write(bind: id)
            serializer.write(" THEN ")
            serializer.write(bind: value)
        }
        serializer.write(" END")
    }
}
