import SQLKit
import Secrets
import WalletServices

extension SQLWalletRepository {
    /// The reads made on every device's fetch, every claim of the outbox and every issuer-data request, each
    /// serialized once for the database's dialect: building and escaping them cost more than running them
    /// (Benchmarks/RESULTS.md, "Fetches that cost no signature").
    struct Lookups: Sendable {
        /// A pass's authentication and `Last-Modified`, by pass type identifier and serial number.
        let webServicePass: SerializedSelect
        /// An order's authentication and `Last-Modified`, by order type identifier and order identifier.
        let webServiceOrder: SerializedSelect
        /// What a pass's archive depends on, with the archive kept for it, by pass identifier.
        let keptArchive: SerializedSelect
        /// The same by pass type identifier and serial number.
        let keptArchiveBySerial: SerializedSelect
        /// A pass's authentication token columns, by pass identifier.
        let passAuthentication: SerializedSelect
        /// The passes of a pass type a device lists as updated (``UpdatedPassRow/lookup(since:on:)``), all of them…
        let updatedPasses: SerializedSelect
        /// …and those newer than an update tag.
        let updatedPassesSince: SerializedSelect
        /// The due pushes of passes, to claim.
        let duePassPushes: SerializedSelect
        /// The due pushes of orders, to claim.
        let dueOrderPushes: SerializedSelect
        /// What issuer data signs for a tag, by the attribute that names it: bind the client, then the value.
        let issuanceTargets: [TagIDAttribute: SerializedSelect]
        /// What a signed pass is made from (its tag, pass, pass type and user), by pass identifier.
        let provisioningTarget: SerializedSelect
        /// The same by the attribute that names the tag: bind the client, then the value.
        let provisioningTargets: [TagIDAttribute: SerializedSelect]

        init(on sql: any SQLDatabase) {
            webServicePass = WebServicePassRow.lookup(on: sql)
            webServiceOrder = WebServicePassRow.orderLookup(on: sql)
            keptArchive = PassArchiveVersionRow.lookup(on: sql)
            keptArchiveBySerial = PassArchiveVersionRow.serialLookup(on: sql)
            passAuthentication = PassAuthenticationRow.lookup(on: sql)
            updatedPasses = UpdatedPassRow.lookup(since: false, on: sql)
            updatedPassesSince = UpdatedPassRow.lookup(since: true, on: sql)
            duePassPushes = ClaimedPushRow.due(.pass, on: sql)
            dueOrderPushes = ClaimedPushRow.due(.order, on: sql)
            let targets = {
                SQLWalletRepository.joinedTarget(
                    sql.select().prefixedColumns(of: TagRow.self).prefixedColumns(of: PassRow.self)
                        .prefixedColumns(of: PassTypeRow.self).prefixedColumns(of: UserRow.self))
            }
            provisioningTarget = SerializedSelect(targets().where(PassRow.column(.id), .equal, SQLBind("")))
            provisioningTargets = Dictionary(
                uniqueKeysWithValues: TagIDAttribute.allCases.map { attribute in
                    let query = targets().where(TagRow.column(.clientID), .equal, SQLBind(""))
                        .where(TagRow.column(TagRow.key(attribute)), .equal, SQLBind(""))
                    return (attribute, SerializedSelect(query))
                })
            issuanceTargets = Dictionary(
                uniqueKeysWithValues: TagIDAttribute.allCases.map { attribute in
                    let query = SQLWalletRepository.joinedTarget(
                        IssuanceTargetRow.selecting(in: sql.select()).prefixedColumns(of: PassTypeRow.self)
                            .prefixedColumns(of: UserRow.self),
                        includingGrant: true)
                    return (
                        attribute,
                        SerializedSelect(
                            query.where(TagRow.column(.clientID), .equal, SQLBind(""))
                                .where(TagRow.column(TagRow.key(attribute)), .equal, SQLBind("")))
                    )
                })
        }
    }

    /// The row `statement` (one of ``lookups``) found first, if any.
    func first<Row: Decodable>(_ type: Row.Type, of statement: SerializedSelect.Statement) async throws -> Row? {
        try await firstRow(of: statement).map { try $0.decode(model: type) }
    }

    /// The rows `statement` (one of ``lookups``) found.
    func rows<Row: Decodable>(_ type: Row.Type, of statement: SerializedSelect.Statement) async throws -> [Row] {
        try await rows(of: statement).map { try $0.decode(model: type) }
    }

    /// The first row `statement` (one of ``lookups``) found, as it is.
    func firstRow(of statement: SerializedSelect.Statement) async throws -> (any SQLRow)? {
        try await rows(of: statement).first
    }

    private func rows(of statement: SerializedSelect.Statement) async throws -> [any SQLRow] {
        let found = Locked<[any SQLRow]>([])
        try await run { try await sql.execute(sql: statement) { row in found.withLock { $0.append(row) } } }
        return found.withLock { $0 }
    }
}
