import Foundation
import SQLKit
import WalletPasses

extension SQLWalletRepository {
    /// The template archive stored for a pass type, or `nil` when it has none (or does not exist).
    public func passTemplate(passTypeID: UUID) async throws -> Data? {
        let row = try await run {
            try await sql.select().column("template").from("pass_types").where("id", .equal, passTypeID.uuidString)
                .first()
        }
        return try row?.decode(column: "template", as: Data?.self)
    }

    /// The state of the pass of the client's tag whose `attribute` is `value`, read in one query.
    public func managedPassState(clientID: UUID, attribute: TagIDAttribute, value: String) async throws
        -> ManagedPassState?
    {
        try await run {
            try await Self.managedPassStates(on: sql, limit: 1) { query in
                query.where(SQLColumn("client_id", table: "tags"), .equal, SQLBind(clientID.uuidString))
                    .where(SQLColumn(attribute.rawValue, table: "tags"), .equal, SQLBind(value))
            }.first?.state
        }
    }

    /// Up to `limit` states of the client's passes after `cursor`, oldest tag first (ties by the tag's identifier),
    /// read in one query.
    public func managedPasses(clientID: UUID, after cursor: PassPageCursor?, limit: Int) async throws
        -> [(state: ManagedPassState, cursor: PassPageCursor)]
    {
        try await run {
            try await Self.managedPassStates(on: sql, limit: limit) { query in
                let client = query.where(SQLColumn("client_id", table: "tags"), .equal, SQLBind(clientID.uuidString))
                guard let cursor else { return client }
                let createdAt = SQLColumn("created_at", table: "tags")
                return client.where { after in
                    after.where(createdAt, .greaterThan, SQLBind(cursor.createdAt)).orWhere { tie in
                        tie.where(createdAt, .equal, SQLBind(cursor.createdAt))
                            .where(SQLColumn("id", table: "tags"), .greaterThan, SQLBind(cursor.tagID.uuidString))
                    }
                }
            }
        }
    }

    /// The columns of each table a state is read from, selected as `table__column`.
    private static let stateColumns: [(table: String, columns: [String])] = [
        ("tags", ["id", "reference_id", "pronto_tag_id", "subscription_id", "created_at"]),
        (
            "apple_passes",
            [
                "id", "serial_number", "pass_content", "account_binding_data", "issuer_binding_data", "updated_at",
                "update_tag",
            ]
        ),
        ("pass_types", ["pass_type_identifier"]),
    ]

    /// Up to `limit` states of the passes of the tags `filter` keeps, oldest tag first (ties by the tag's
    /// identifier), each with the cursor after it: one query joining each tag to its pass and pass type, with the
    /// number of devices registered for the pass.
    static func managedPassStates(
        on db: any SQLDatabase, limit: Int, where filter: (SQLSelectBuilder) -> SQLSelectBuilder
    ) async throws -> [(state: ManagedPassState, cursor: PassPageCursor)] {
        var query = db.select()
        for (table, columns) in stateColumns {
            for column in columns { query = query.column(SQLColumn(column, table: table), as: "\(table)__\(column)") }
        }
        let registrations = SQLSubquery.select {
            $0.column(SQLFunction("COUNT", args: SQLLiteral.all)).from("pass_registrations")
                .where(
                    SQLColumn("pass_id", table: "pass_registrations"), .equal, SQLColumn("id", table: "apple_passes"))
        }
        query = query.column(SQLAlias(registrations, as: SQLIdentifier("registrations")))
            .from("tags")
            .join(
                "apple_passes", on: SQLColumn("tag_id", table: "apple_passes"), .equal, SQLColumn("id", table: "tags")
            )
            .joiningPassTypes()
        let finished = filter(query).orderBy(SQLColumn("created_at", table: "tags"))
            .orderBy(SQLColumn("id", table: "tags")).limit(limit)
        return try await finished.all().map { row in
            let tagID = try uuid(row, "tags__id")
            let tagCreatedAt = try row.decode(column: "tags__created_at", as: Int64.self)
            let passID = try uuid(row, "apple_passes__id")
            let pass: Pass
            do {
                pass = try PassPackage(archive: try row.decode(column: "apple_passes__pass_content", as: Data.self))
                    .pass
            } catch {
                throw WalletServerError.corruptRecord("the content of pass \(passID)")
            }
            let content = ManagedPassState.content(of: pass)
            let binding: ManagedPassState.BindingState =
                try row.decode(column: "apple_passes__issuer_binding_data", as: String?.self) != nil
                ? .bound
                : try row.decode(column: "apple_passes__account_binding_data", as: Data?.self) != nil
                    ? .issued : .unbound
            let state = ManagedPassState(
                tag: .init(
                    id: tagID, referenceID: try row.decode(column: "tags__reference_id", as: String?.self),
                    prontoTagID: try row.decode(column: "tags__pronto_tag_id", as: String?.self),
                    subscriptionID: try row.decode(column: "tags__subscription_id", as: String?.self)),
                passID: passID,
                passTypeIdentifier: try row.decode(column: "pass_types__pass_type_identifier", as: String.self),
                serialNumber: try row.decode(column: "apple_passes__serial_number", as: String.self),
                fields: content.fields, voided: content.voided, expirationDate: content.expiration,
                relevantDate: content.relevant, bindingState: binding,
                registrations: Int(try row.decode(column: "registrations", as: Int64.self)),
                updatedAt: date(try row.decode(column: "apple_passes__updated_at", as: Int64.self)),
                updateTag: String(try row.decode(column: "apple_passes__update_tag", as: Int64?.self) ?? 0))
            return (state, PassPageCursor(createdAt: tagCreatedAt, tagID: tagID))
        }
    }
}
