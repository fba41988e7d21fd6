import Foundation
import SQLKit
import WalletPasses

extension SQLWalletRepository: PassManagementRepository {
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
            try await Self.managedPassStates(
                on: sql,
                where: "t.client_id = \(bind: clientID.uuidString) AND t.\(ident: attribute.rawValue) = \(bind: value)",
                limit: 1
            ).first?.state
        }
    }

    /// Up to `limit` states of the client's passes after `cursor`, oldest tag first (ties by the tag's identifier),
    /// read in one query.
    public func managedPasses(clientID: UUID, after cursor: PassPageCursor?, limit: Int) async throws
        -> [(state: ManagedPassState, cursor: PassPageCursor)]
    {
        var condition: SQLQueryString = "t.client_id = \(bind: clientID.uuidString)"
        if let cursor {
            condition +=
                """
                 AND (t.created_at > \(bind: cursor.createdAt) OR \
                (t.created_at = \(bind: cursor.createdAt) AND t.id > \(bind: cursor.tagID.uuidString)))
                """
        }
        let finished = condition
        return try await run { try await Self.managedPassStates(on: sql, where: finished, limit: limit) }
    }

    /// The states of the passes whose tag (`t`), pass (`p`) and pass type (`pt`) meet `condition`, oldest tag first,
    /// each with the cursor after it.
    static func managedPassStates(on db: any SQLDatabase, where condition: SQLQueryString, limit: Int) async throws
        -> [(state: ManagedPassState, cursor: PassPageCursor)]
    {
        let query: SQLQueryString =
            """
            SELECT t.id AS tag_id, t.reference_id, t.pronto_tag_id, t.subscription_id, t.created_at AS tag_created_at, \
            p.id AS pass_id, p.serial_number, p.pass_content, p.account_binding_data, p.issuer_binding_data, \
            p.updated_at, p.update_tag, pt.pass_type_identifier, \
            (SELECT COUNT(*) FROM pass_registrations r WHERE r.pass_id = p.id) AS registrations \
            FROM tags t JOIN apple_passes p ON p.tag_id = t.id JOIN pass_types pt ON pt.id = p.pass_type_id \
            WHERE 
            """ + condition + " ORDER BY t.created_at, t.id LIMIT \(bind: limit)"
        return try await db.raw(query).all().map { row in
            let tagID = try uuid(row, "tag_id")
            let tagCreatedAt = try row.decode(column: "tag_created_at", as: Int64.self)
            let archive = try row.decode(column: "pass_content", as: Data.self)
            let pass: Pass
            do {
                pass = try PassPackage(archive: archive).pass
            } catch {
                throw WalletServerError.corruptRecord("the content of pass \(try uuid(row, "pass_id"))")
            }
            let content = ManagedPassState.content(of: pass)
            let binding: ManagedPassState.BindingState =
                try row.decode(column: "issuer_binding_data", as: String?.self) != nil
                ? .bound
                : try row.decode(column: "account_binding_data", as: Data?.self) != nil ? .issued : .unbound
            let state = ManagedPassState(
                tag: .init(
                    id: tagID, referenceID: try row.decode(column: "reference_id", as: String?.self),
                    prontoTagID: try row.decode(column: "pronto_tag_id", as: String?.self),
                    subscriptionID: try row.decode(column: "subscription_id", as: String?.self)),
                passID: try uuid(row, "pass_id"),
                passTypeIdentifier: try row.decode(column: "pass_type_identifier", as: String.self),
                serialNumber: try row.decode(column: "serial_number", as: String.self), fields: content.fields,
                voided: content.voided, expirationDate: content.expiration, relevantDate: content.relevant,
                bindingState: binding, registrations: Int(try row.decode(column: "registrations", as: Int64.self)),
                updatedAt: date(try row.decode(column: "updated_at", as: Int64.self)),
                updateTag: String(try row.decode(column: "update_tag", as: Int64?.self) ?? 0))
            return (state, PassPageCursor(createdAt: tagCreatedAt, tagID: tagID))
        }
    }
}
