import SQLKit

extension SQLSelectBuilder {
    /// Joins each selected pass (`apple_passes`) to its pass type (`pass_types`).
    func joiningPassTypes() -> Self {
        join(
            "pass_types", on: SQLColumn("id", table: "pass_types"), .equal,
            SQLColumn("pass_type_id", table: "apple_passes"))
    }

    /// Joins each selected row with a `pass_id` column in `table` to its pass (`apple_passes`).
    func joiningPasses(of table: String) -> Self {
        join("apple_passes", on: SQLColumn("id", table: "apple_passes"), .equal, SQLColumn("pass_id", table: table))
    }

    /// Joins `table` where each pair of `columns` is equal (an inner join unless `method` says otherwise).
    func join(_ table: String, method: SQLJoinMethod = .inner, equating columns: [(SQLColumn, SQLColumn)]) -> Self {
        let conditions = columns.map { SQLBinaryExpression($0.0, .equal, $0.1) as any SQLExpression }
        let condition = conditions.dropFirst().reduce(conditions[0]) { SQLBinaryExpression($0, .and, $1) }
        return join(table, method: method, on: condition)
    }
}
