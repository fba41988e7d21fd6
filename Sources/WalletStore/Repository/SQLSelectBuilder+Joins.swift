import SQLKit
import WalletServices

extension SQLSelectBuilder {
    /// Joins each selected pass (`apple_passes`) to its pass type (`pass_types`).
    func joiningPassTypes() -> Self {
        join(PassTypeRow.table, on: PassTypeRow.column(.id), .equal, PassRow.column(.passTypeID))
    }

    /// Joins each selected row to the pass (`apple_passes`) its column `passID` names.
    func joiningPasses(on passID: SQLColumn) -> Self {
        join(PassRow.table, on: PassRow.column(.id), .equal, passID)
    }

    /// Joins `table` where each pair of `columns` is equal (an inner join unless `method` says otherwise).
    func join(_ table: String, method: SQLJoinMethod = .inner, equating columns: [(SQLColumn, SQLColumn)]) -> Self {
        let conditions = columns.map { SQLBinaryExpression($0.0, .equal, $0.1) as any SQLExpression }
        let condition = conditions.dropFirst().reduce(conditions[0]) { SQLBinaryExpression($0, .and, $1) }
        return join(table, method: method, on: condition)
    }
}
