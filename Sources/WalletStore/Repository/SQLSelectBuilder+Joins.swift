import SQLKit
import WalletServices

extension SQLSelectBuilder {
    /// Joins each selected pass (`apple_passes`) to its pass type (`pass_types`); `method` ``InnerJoinInOrder`` keeps
    /// SQLite from starting at the pass type.
    func joiningPassTypes(method: any SQLExpression = SQLJoinMethod.inner) -> Self {
        join(PassTypeRow.table, method: method, on: PassTypeRow.column(.id), .equal, PassRow.column(.passTypeID))
    }

    /// Joins each selected row to the pass (`apple_passes`) its column `passID` names.
    func joiningPasses(on passID: SQLColumn, method: any SQLExpression = SQLJoinMethod.inner) -> Self {
        join(PassRow.table, method: method, on: PassRow.column(.id), .equal, passID)
    }

    /// Joins `table` where each pair of `columns` is equal (an inner join unless `method` says otherwise).
    func join(_ table: String, method: SQLJoinMethod = .inner, equating columns: [(SQLColumn, SQLColumn)]) -> Self {
        let conditions = columns.map { SQLBinaryExpression($0.0, .equal, $0.1) as any SQLExpression }
        let condition = conditions.dropFirst().reduce(conditions[0]) { SQLBinaryExpression($0, .and, $1) }
        return join(table, method: method, on: condition)
    }
}

/// An inner join that SQLite does in the order written, its `CROSS JOIN`
/// (https://sqlite.org/optoverview.html#manual_control_of_query_plans_using_cross_join): without statistics it may
/// start a device's list from every pass of the type. PostgreSQL, which plans from statistics, gets `INNER`.
struct InnerJoinInOrder: SQLExpression {
    func serialize(to serializer: inout SQLSerializer) {
        serializer.write(serializer.dialect.name == "sqlite" ? "CROSS" : "INNER")
    }
}
