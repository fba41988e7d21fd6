import Foundation
import SQLKit
import WalletPasses
import WalletServices

extension SQLWalletRepository {
    /// The template archive stored for a pass type, or `nil` when it has none (or does not exist).
    package func passTemplate(passTypeID: UUID) async throws -> Data? {
        try await run {
            try await sql.select().column("template").from(PassTypeRow.table)
                .where(PassTypeRow.column(.id), .equal, SQLBind(passTypeID.uuidString))
                .first(decodingColumn: "template", as: Data?.self)
        } ?? nil
    }

    /// The state of the pass of the client's tag whose `attribute` is `value`, read in one query.
    package func managedPassState(clientID: UUID, attribute: TagIDAttribute, value: String) async throws
        -> ManagedPassState?
    {
        try await run {
            try await Self.managedPassStates(on: sql, limit: 1) { query in
                query.where(TagRow.column(.clientID), .equal, SQLBind(clientID.uuidString))
                    .where(TagRow.column(TagRow.key(attribute)), .equal, SQLBind(value))
            }.first?.state
        }
    }

    /// Up to `limit` states of the client's passes after `cursor`, oldest tag first (ties by the tag's identifier),
    /// read in one query.
    package func managedPasses(clientID: UUID, after cursor: PassPageCursor?, limit: Int) async throws
        -> [(state: ManagedPassState, cursor: PassPageCursor)]
    {
        try await run {
            try await Self.managedPassStates(on: sql, limit: limit) { query in
                let client = query.where(TagRow.column(.clientID), .equal, SQLBind(clientID.uuidString))
                guard let cursor else { return client }
                let createdAt = TagRow.column(.createdAt)
                return client.where { after in
                    after.where(createdAt, .greaterThan, SQLBind(cursor.createdAt)).orWhere { tie in
                        tie.where(createdAt, .equal, SQLBind(cursor.createdAt))
                            .where(TagRow.column(.id), .greaterThan, SQLBind(cursor.tagID.uuidString))
                    }
                }
            }
        }
    }

    /// Up to `limit` states of the passes of the tags `filter` keeps, oldest tag first (ties by the tag's
    /// identifier), each with the cursor after it: one query joining each tag to its pass and pass type, with the
    /// number of devices registered for the pass.
    static func managedPassStates(
        on db: any SQLDatabase, limit: Int, where filter: (SQLSelectBuilder) -> SQLSelectBuilder
    ) async throws -> [(state: ManagedPassState, cursor: PassPageCursor)] {
        let registrations = SQLSubquery.select {
            $0.column(SQLFunction("COUNT", args: SQLLiteral.all)).from(PassRegistrationRow.table)
                .where(PassRegistrationRow.column(.passID), .equal, PassRow.column(.id))
        }
        let query = db.select()
            .prefixedColumns(of: TagRow.self).prefixedColumns(of: PassRow.self)
            .prefixedColumns(of: PassTypeRow.self)
            .column(SQLAlias(registrations, as: SQLIdentifier("registrations")))
            .from(TagRow.table)
            .join(PassRow.table, on: PassRow.column(.tagID), .equal, TagRow.column(.id))
            .joiningPassTypes()
        let finished = filter(query).orderBy(TagRow.column(.createdAt)).orderBy(TagRow.column(.id)).limit(limit)
        return try await finished.all().map { row in
            let tag = try row.decode(prefixed: TagRow.self)
            let state = try managedPassState(
                tag: try tag.model(), pass: try row.decode(prefixed: PassRow.self).model(),
                passType: try row.decode(prefixed: PassTypeRow.self).model(),
                registrations: try row.decode(column: "registrations", as: Int64.self))
            return (state, PassPageCursor(createdAt: tag.createdAt, tagID: state.tag.id))
        }
    }

    /// The state of `pass`, of `tag` and `passType`, with `registrations` devices registered for it.
    private static func managedPassState(tag: ClientTag, pass: StoredPass, passType: PassType, registrations: Int64)
        throws -> ManagedPassState
    {
        let fields:
            (
                fields: [String: PassField.Value], localized: [String: [String: [String: String]]], voided: Bool,
                expiration: Date?, relevant: Date?
            )
        do {
            fields = try ManagedPassState.content(ofArchive: pass.passContent)
        } catch {
            throw WalletServerError.corruptRecord("the content of pass \(pass.id)")
        }
        let binding: ManagedPassState.BindingState =
            pass.issuerBindingData != nil ? .bound : pass.accountBindingData != nil ? .issued : .unbound
        return ManagedPassState(
            tag: .init(
                id: tag.id, referenceID: tag.referenceID, prontoTagID: tag.prontoTagID,
                subscriptionID: tag.subscriptionID),
            passID: pass.id, passTypeIdentifier: passType.passTypeIdentifier, serialNumber: pass.serialNumber,
            fields: fields.fields, voided: fields.voided, expirationDate: fields.expiration,
            relevantDate: fields.relevant, bindingState: binding, registrations: Int(registrations),
            updatedAt: pass.updatedAt, updateTag: String(pass.updateTag), localizedFields: fields.localized)
    }
}
