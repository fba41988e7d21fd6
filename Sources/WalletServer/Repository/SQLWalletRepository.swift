import Foundation
import SQLKit
import WalletPasses

/// ``WalletRepository`` in SQL, written once over SQLKit for SQLite and PostgreSQL.
///
/// Identifiers are stored as text, times as integer milliseconds since 1970, so that both engines store and
/// compare them identically.
public struct SQLWalletRepository: WalletRepository {
    let database: WalletDatabase
    var sql: any SQLDatabase { database.sql }
    /// Commits the provisioning flow's concurrent writes together (one transaction, one sync).
    private let writes: GroupCommit<ProvisioningWrite, ProvisioningSession?>
    /// API users who authenticated recently, kept for ``authenticationLifetime``.
    private let recentlyAuthenticated: RecentlyAuthenticated

    /// How long an authenticated API user is trusted without reading the database again: the longest time a user
    /// revoked elsewhere (by `coffer admin` or another server on the same database) can still authenticate here.
    public var authenticationLifetime: Duration { recentlyAuthenticated.lifetime }

    /// Creates a repository; run ``SchemaMigrator/migrate()`` on the database first.
    ///
    /// - Parameter authenticationLifetime: how long an API user who authenticated is trusted without reading the
    ///   database again (zero: never). A revocation made through this repository takes effect at once.
    public init(database: WalletDatabase, authenticationLifetime: Duration = .seconds(5)) {
        self.database = database
        self.recentlyAuthenticated = RecentlyAuthenticated(lifetime: authenticationLifetime)
        self.writes = GroupCommit { batch in try await Self.commit(batch, to: database) }
    }

    // MARK: Clients

    /// Creates a client.
    public func createClient(name: String) async throws -> Client {
        let client = Client(name: name)
        try await insert(
            "clients", ["id": client.id.uuidString, "name": client.name, "created_at": Self.ms(client.createdAt)])
        return client
    }

    /// The client with `id`.
    public func client(id: UUID) async throws -> Client? {
        try await select("clients", where: ["id": id.uuidString]).first.map(Self.client)
    }

    /// Every client, oldest first.
    public func clients() async throws -> [Client] {
        try await select("clients", orderBy: "created_at").map(Self.client)
    }

    // MARK: API users

    /// Creates an API user and returns it with its token; only the token's hash is stored.
    public func createAPIUser(clientID: UUID, name: String) async throws -> (apiUser: APIUser, token: String) {
        guard try await client(id: clientID) != nil else { throw WalletServerError.notFound("client \(clientID)") }
        let token = SecretToken.makeAPIToken()
        let user = APIUser(clientID: clientID, name: name, tokenHash: SecretToken.hash(token))
        try await insert(
            "api_users",
            [
                "id": user.id.uuidString, "client_id": clientID.uuidString, "name": name, "token_hash": user.tokenHash,
                "created_at": Self.ms(user.createdAt), "revoked_at": Int64?.none,
            ])
        return (user, token)
    }

    /// The active (not revoked) API user whose token this is.
    ///
    /// A user who authenticated less than ``authenticationLifetime`` ago is answered from memory.
    public func apiUser(token: String) async throws -> APIUser? {
        let hash = SecretToken.hash(token)
        if let user = recentlyAuthenticated.user(tokenHash: hash) { return user }
        guard let row = try await select("api_users", where: ["token_hash": hash]).first else { return nil }
        let user = try Self.apiUser(row)
        // The lookup matched on the hash already; compare again in constant time before trusting the row.
        guard SecretToken.constantTimeEquals(user.tokenHash, hash), user.revokedAt == nil else { return nil }
        recentlyAuthenticated.keep(user, tokenHash: hash)
        return user
    }

    /// The client's API users (revoked ones included), oldest first.
    public func apiUsers(clientID: UUID) async throws -> [APIUser] {
        try await select("api_users", where: ["client_id": clientID.uuidString], orderBy: "created_at").map(
            Self.apiUser)
    }

    /// Revokes an API user; returns whether an active one was revoked.
    public func revokeAPIUser(id: UUID) async throws -> Bool {
        defer { recentlyAuthenticated.forget(userID: id) }
        return try await database.transaction { db in
            let active = try await db.select().column("id").from("api_users").where("id", .equal, id.uuidString)
                .where("revoked_at", .is, SQLLiteral.null).first()
            guard active != nil else { return false }
            try await db.update("api_users").set("revoked_at", to: Self.ms(Date())).where("id", .equal, id.uuidString)
                .run()
            return true
        }
    }

    // MARK: Users

    /// Creates a user with a fresh account hash.
    public func createUser(clientID: UUID, externalReference: String?) async throws -> User {
        guard try await client(id: clientID) != nil else { throw WalletServerError.notFound("client \(clientID)") }
        let user = User(clientID: clientID, externalReference: externalReference)
        try await insert(
            "users",
            [
                "id": user.id.uuidString, "client_id": clientID.uuidString, "external_reference": externalReference,
                "account_hash": user.accountHash, "created_at": Self.ms(user.createdAt),
            ])
        return user
    }

    /// The user with `id`.
    public func user(id: UUID) async throws -> User? {
        try await select("users", where: ["id": id.uuidString]).first.map(Self.user)
    }

    /// The client's users, oldest first.
    public func users(clientID: UUID) async throws -> [User] {
        try await select("users", where: ["client_id": clientID.uuidString], orderBy: "created_at").map(Self.user)
    }

    // MARK: Pass types

    /// Stores a pass type.
    public func createPassType(_ passType: PassType) async throws {
        try await insert(
            "pass_types",
            [
                "id": passType.id.uuidString, "pass_type_identifier": passType.passTypeIdentifier,
                "team_identifier": passType.teamIdentifier, "organization_name": passType.organizationName,
                "signing_key_path": passType.signingKeyPath, "binding_learn_more_url": passType.bindingLearnMoreURL,
                "created_at": Self.ms(passType.createdAt), "nfc_public_key": passType.nfcPublicKey,
            ])
    }

    /// Changes a pass type's organization name, signing identity path and binding learn-more page.
    public func updatePassType(_ passType: PassType) async throws {
        try await run {
            try await sql.update("pass_types")
                .set("organization_name", to: passType.organizationName)
                .set("signing_key_path", to: passType.signingKeyPath)
                .set("binding_learn_more_url", to: passType.bindingLearnMoreURL)
                .where("id", .equal, passType.id.uuidString)
                .run()
        }
    }

    /// The pass type with `id`.
    public func passType(id: UUID) async throws -> PassType? {
        try await select("pass_types", where: ["id": id.uuidString]).first.map(Self.passType)
    }

    /// Every pass type.
    public func passTypes() async throws -> [PassType] {
        try await select("pass_types", orderBy: "created_at").map(Self.passType)
    }

    // MARK: Tags

    /// Stores a tag.
    public func createTag(_ tag: ClientTag) async throws {
        guard let user = try await user(id: tag.userID), user.clientID == tag.clientID else {
            throw WalletServerError.notFound("user \(tag.userID) of client \(tag.clientID)")
        }
        try await insert("tags", Self.columns(of: tag))
    }

    /// Stores tags with their passes in one transaction (a few multi-row statements): all of them or none.
    public func createTags(_ tags: [(tag: ClientTag, pass: ApplePass)]) async throws {
        for (userID, clientID) in Dictionary(tags.map { ($0.tag.userID, $0.tag.clientID) }, uniquingKeysWith: { $1 }) {
            guard let user = try await user(id: userID), user.clientID == clientID else {
                throw WalletServerError.notFound("user \(userID) of client \(clientID)")
            }
        }
        try await run {
            try await database.transaction { db in
                // A thousand rows a statement keeps every statement under both engines' limits on parameters.
                for chunk in stride(from: 0, to: tags.count, by: 1000).map({ tags[$0..<min($0 + 1000, tags.count)] }) {
                    try await Self.insertRows("tags", chunk.map { Self.columns(of: $0.tag) }, on: db)
                    try await Self.insertRows("apple_passes", chunk.map { Self.columns(of: $0.pass) }, on: db)
                }
            }
        }
    }

    /// The tag with `id`.
    public func tag(id: UUID) async throws -> ClientTag? {
        try await select("tags", where: ["id": id.uuidString]).first.map(Self.tag)
    }

    /// The client's tag whose `attribute` is `value`.
    public func tag(clientID: UUID, attribute: TagIDAttribute, value: String) async throws -> ClientTag? {
        try await select("tags", where: ["client_id": clientID.uuidString, attribute.rawValue: value]).first.map(
            Self.tag)
    }

    /// The client's tags, oldest first.
    public func tags(clientID: UUID) async throws -> [ClientTag] {
        try await select("tags", where: ["client_id": clientID.uuidString], orderBy: "created_at").map(Self.tag)
    }

    // MARK: Provisioning targets

    /// The pass of the client's tag whose `attribute` is `value`, with its tag, user and pass type, read together.
    public func provisioningTarget(clientID: UUID, attribute: TagIDAttribute, value: String) async throws
        -> ProvisioningTarget?
    {
        try await provisioningTarget(
            where: [
                SQLColumn("client_id", table: "tags"): clientID.uuidString,
                SQLColumn(attribute.rawValue, table: "tags"): value,
            ])
    }

    /// The pass with `passID`, with its tag, user and pass type, read together.
    public func provisioningTarget(passID: UUID) async throws -> ProvisioningTarget? {
        try await provisioningTarget(where: [SQLColumn("id", table: "apple_passes"): passID.uuidString])
    }

    /// What an issuance needs about the pass of the client's tag whose `attribute` is `value`, read in one query.
    public func issuanceTarget(clientID: UUID, attribute: TagIDAttribute, value: String) async throws
        -> IssuanceTarget?
    {
        guard
            let row = try await joinedTarget(
                columns: Self.issuanceTargetColumns,
                where: [
                    SQLColumn("client_id", table: "tags"): clientID.uuidString,
                    SQLColumn(attribute.rawValue, table: "tags"): value,
                ], includingGrant: true)
        else { return nil }
        return IssuanceTarget(
            tagID: try Self.uuid(row, "tags__id"), passID: try Self.uuid(row, "apple_passes__id"),
            passType: try Self.passType(PrefixedRow(row: row, prefix: "pass_types__")),
            user: try Self.user(PrefixedRow(row: row, prefix: "users__")),
            clientMayIssue: try row.decode(column: "pass_type_clients__client_id", as: String?.self) != nil)
    }

    /// The columns of each table a provisioning target joins, selected as `table__column`.
    private static let targetColumns: [(table: String, columns: [String])] = [
        ("tags", ["id", "client_id", "user_id", "reference_id", "pronto_tag_id", "subscription_id", "created_at"]),
        (
            "apple_passes",
            [
                "id", "tag_id", "pass_type_id", "serial_number", "pass_content", "account_binding_data",
                "issuer_binding_data", "key_hash", "updated_at", "modified_at", "update_tag",
            ]
        ),
        (
            "pass_types",
            [
                "id", "pass_type_identifier", "team_identifier", "organization_name", "signing_key_path",
                "binding_learn_more_url", "created_at", "nfc_public_key",
            ]
        ),
        ("users", ["id", "client_id", "external_reference", "account_hash", "created_at"]),
    ]

    /// The columns an issuance target needs: the tag's and the pass's identifiers, the pass type and the user.
    private static let issuanceTargetColumns: [(table: String, columns: [String])] =
        [
            ("tags", ["id"]), ("apple_passes", ["id"]),
        ] + targetColumns.filter { ["pass_types", "users"].contains($0.table) }

    func provisioningTarget(where conditions: KeyValuePairs<SQLColumn, String>) async throws
        -> ProvisioningTarget?
    {
        guard let row = try await joinedTarget(columns: Self.targetColumns, where: conditions) else { return nil }
        return ProvisioningTarget(
            tag: try Self.tag(PrefixedRow(row: row, prefix: "tags__")),
            pass: try Self.pass(PrefixedRow(row: row, prefix: "apple_passes__")),
            passType: try Self.passType(PrefixedRow(row: row, prefix: "pass_types__")),
            user: try Self.user(PrefixedRow(row: row, prefix: "users__")))
    }

    /// The row joining a tag, its pass, the pass type and the tag's user where `conditions` hold, with `columns`
    /// selected as `table__column`; `includingGrant` adds `pass_type_clients__client_id`, `NULL` when the tag's
    /// client may not issue under the pass type.
    private func joinedTarget(
        columns: [(table: String, columns: [String])], where conditions: KeyValuePairs<SQLColumn, String>,
        includingGrant: Bool = false
    ) async throws -> (any SQLRow)? {
        var query = sql.select()
        for (table, columns) in columns {
            for column in columns { query = query.column(SQLColumn(column, table: table), as: "\(table)__\(column)") }
        }
        query = query.from("tags")
            .join(
                "apple_passes", on: SQLColumn("tag_id", table: "apple_passes"), .equal, SQLColumn("id", table: "tags")
            )
            .joiningPassTypes()
            .join("users", on: SQLColumn("id", table: "users"), .equal, SQLColumn("user_id", table: "tags"))
        if includingGrant {
            query = query.column(SQLColumn("client_id", table: "pass_type_clients"), as: "pass_type_clients__client_id")
                .join(
                    "pass_type_clients", method: .left,
                    equating: [
                        (
                            SQLColumn("pass_type_id", table: "pass_type_clients"),
                            SQLColumn("pass_type_id", table: "apple_passes")
                        ),
                        (SQLColumn("client_id", table: "pass_type_clients"), SQLColumn("client_id", table: "tags")),
                    ])
        }
        for (column, value) in conditions { query = query.where(column, .equal, SQLBind(value)) }
        let finished = query
        return try await run { try await finished.first() }
    }

    // MARK: Passes

    /// Stores a pass.
    public func createPass(_ pass: ApplePass) async throws {
        try await insert("apple_passes", Self.columns(of: pass))
    }

    /// The pass of a tag.
    public func pass(tagID: UUID) async throws -> ApplePass? {
        try await select("apple_passes", where: ["tag_id": tagID.uuidString]).first.map(Self.pass)
    }

    /// The pass with `id`.
    public func pass(id: UUID) async throws -> ApplePass? {
        try await select("apple_passes", where: ["id": id.uuidString]).first.map(Self.pass)
    }

    /// Replaces a pass's mutable fields (content, binding data, key hash, update time).
    public func updatePass(_ pass: ApplePass) async throws {
        var update = sql.update("apple_passes")
        for (column, value) in Self.columns(of: pass).sorted(by: { $0.key < $1.key })
        where Self.mutablePassColumns.contains(column) {
            update = update.set(column, to: value)
        }
        let finished = update.where("id", .equal, pass.id.uuidString)
        try await run { try await finished.run() }
    }

    /// The columns of a pass that change after it is made.
    static let mutablePassColumns: Set<String> = [
        "serial_number", "pass_content", "account_binding_data", "issuer_binding_data", "key_hash", "updated_at",
    ]

    /// Stores what a device's callback bound (and its new token, when given), and spends the pass's landing links.
    public func recordBinding(_ pass: ApplePass, authentication: PassAuthenticationTokens.Assignment? = nil)
        async throws
    {
        _ = try await run { try await writes.submit(.binding(pass, authentication)) }
    }

    // MARK: Sessions

    /// Records a provisioning session, under the SHA-256 of its identifier (never the identifier itself).
    public func createSession(_ session: ProvisioningSession) async throws {
        try await run {
            try await sql.insert(into: "provisioning_sessions").columns(Self.sessionColumns)
                .values(Self.sessionValues(session)).run()
        }
    }

    /// Stores the pass's new binding data (only the columns an issuance owns), ends the pass's open sessions and
    /// opens the new one, atomically, and returns once that is durable. Writes that arrive while others are being
    /// committed are committed together, in one transaction and one sync.
    public func recordIssuance(_ issuance: Issuance) async throws {
        _ = try await run { try await writes.submit(.issuance(issuance)) }
    }

    /// The columns of a session row, in the order of ``sessionValues(_:)``.
    static let sessionColumns = ["created_at", "expires_at", "id_hash", "pass_id", "used_at"]

    /// A session's row: the hash of its identifier, never the identifier.
    static func sessionValues(_ session: ProvisioningSession) -> [any Encodable & Sendable] {
        [
            ms(session.createdAt), ms(session.expiresAt), SessionIdentifier.hash(session.id),
            session.passID.uuidString, session.usedAt.map(ms),
        ]
    }

    /// Marks the session used if it exists, is unused and has not expired at `now`, atomically; returns it, or `nil`
    /// when it cannot be used (so a replayed or unknown session is refused). It is looked up by the hash of `id`.
    public func consumeSession(id: String, now: Date) async throws -> ProvisioningSession? {
        // One statement is the gate (see `commitConsumptions`): only the caller whose UPDATE changes the row gets it
        // back, however many race.
        try await run { try await writes.submit(.consumption(sessionID: id, now: now)) }
    }

    /// Deletes up to `limit` sessions that expired at or before `now` (used or not: no callback can use them);
    /// returns how many it deleted.
    public func deleteExpiredSessions(now: Date, limit: Int) async throws -> Int {
        guard limit > 0 else { return 0 }
        let cutoff = Self.ms(now)
        // A bounded batch keeps each write transaction short; the same statement on SQLite and PostgreSQL.
        let rows = try await run {
            try await sql.raw(
                """
                DELETE FROM provisioning_sessions WHERE id_hash IN \
                (SELECT id_hash FROM provisioning_sessions WHERE expires_at <= \(bind: cutoff) LIMIT \(bind: limit)) \
                RETURNING pass_id
                """
            ).all()
        }
        return rows.count
    }

    // MARK: SQL helpers

    func insert(_ table: String, _ values: [String: any Encodable & Sendable]) async throws {
        try await run { try await Self.insertRows(table, [values], on: sql) }
    }

    /// Inserts rows that all have the same columns, in one statement.
    static func insertRows(
        _ table: String, _ rows: [[String: any Encodable & Sendable]], on db: any SQLDatabase
    ) async throws {
        guard let columns = rows.first?.keys.sorted() else { return }
        var insert = db.insert(into: table).columns(columns)
        for row in rows { insert = insert.values(columns.map { SQLBind(row[$0]!) }) }
        try await insert.run()
    }

    static func columns(of tag: ClientTag) -> [String: any Encodable & Sendable] {
        [
            "id": tag.id.uuidString, "client_id": tag.clientID.uuidString, "user_id": tag.userID.uuidString,
            "reference_id": tag.referenceID, "pronto_tag_id": tag.prontoTagID, "subscription_id": tag.subscriptionID,
            "created_at": ms(tag.createdAt),
        ]
    }

    func select(
        _ table: String, where conditions: [String: any Encodable & Sendable] = [:], orderBy: String? = nil
    ) async throws -> [any SQLRow] {
        var query = sql.select().column("*").from(table)
        for column in conditions.keys.sorted() {
            query = query.where(SQLIdentifier(column), .equal, SQLBind(conditions[column]!))
        }
        if let orderBy { query = query.orderBy(orderBy) }
        let finished = query
        return try await run { try await finished.all() }
    }

    /// Maps driver errors to typed ones by their codes (``DatabaseErrorKind``): a unique-constraint violation is a
    /// conflict, a foreign-key violation a missing record, anything else that is not already typed means the
    /// database could not do the work.
    func run<R>(_ body: () async throws -> R) async throws -> R {
        do {
            return try await body()
        } catch let error as WalletServerError {
            throw error
        } catch let error as WalletPassesError {
            // A pass's content that cannot be read or rewritten (inside a transaction that changes it).
            throw error
        } catch {
            switch DatabaseErrorKind(error) {
            case .uniqueViolation: throw WalletServerError.conflict("a record with the same key")
            case .foreignKeyViolation: throw WalletServerError.notFound("a referenced record")
            case .undefinedTable, .other:
                throw WalletServerError.databaseUnavailable(String(describing: type(of: error)))
            }
        }
    }

    static func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

    static func uuid(_ row: any SQLRow, _ column: String) throws -> UUID {
        let text = try row.decode(column: column, as: String.self)
        guard let id = UUID(uuidString: text) else { throw WalletServerError.corruptRecord("\(column) '\(text)'") }
        return id
    }

    private static func client(_ row: any SQLRow) throws -> Client {
        Client(
            id: try uuid(row, "id"), name: try row.decode(column: "name", as: String.self),
            createdAt: date(try row.decode(column: "created_at", as: Int64.self)))
    }

    private static func apiUser(_ row: any SQLRow) throws -> APIUser {
        APIUser(
            id: try uuid(row, "id"), clientID: try uuid(row, "client_id"),
            name: try row.decode(column: "name", as: String.self),
            tokenHash: try row.decode(column: "token_hash", as: Data.self),
            createdAt: date(try row.decode(column: "created_at", as: Int64.self)),
            revokedAt: try row.decode(column: "revoked_at", as: Int64?.self).map(date))
    }

    static func user(_ row: any SQLRow) throws -> User {
        User(
            id: try uuid(row, "id"), clientID: try uuid(row, "client_id"),
            externalReference: try row.decode(column: "external_reference", as: String?.self),
            accountHash: try row.decode(column: "account_hash", as: String.self),
            createdAt: date(try row.decode(column: "created_at", as: Int64.self)))
    }

    static func passType(_ row: any SQLRow) throws -> PassType {
        PassType(
            id: try uuid(row, "id"),
            passTypeIdentifier: try row.decode(column: "pass_type_identifier", as: String.self),
            teamIdentifier: try row.decode(column: "team_identifier", as: String.self),
            organizationName: try row.decode(column: "organization_name", as: String.self),
            signingKeyPath: try row.decode(column: "signing_key_path", as: String.self),
            bindingLearnMoreURL: try row.decode(column: "binding_learn_more_url", as: String?.self),
            createdAt: date(try row.decode(column: "created_at", as: Int64.self)),
            nfcPublicKey: try row.decode(column: "nfc_public_key", as: String?.self))
    }

    static func tag(_ row: any SQLRow) throws -> ClientTag {
        ClientTag(
            id: try uuid(row, "id"), clientID: try uuid(row, "client_id"), userID: try uuid(row, "user_id"),
            referenceID: try row.decode(column: "reference_id", as: String?.self),
            prontoTagID: try row.decode(column: "pronto_tag_id", as: String?.self),
            subscriptionID: try row.decode(column: "subscription_id", as: String?.self),
            createdAt: date(try row.decode(column: "created_at", as: Int64.self)))
    }

    static func pass(_ row: any SQLRow) throws -> ApplePass {
        ApplePass(
            id: try uuid(row, "id"), tagID: try uuid(row, "tag_id"), passTypeID: try uuid(row, "pass_type_id"),
            serialNumber: try row.decode(column: "serial_number", as: String.self),
            passContent: try row.decode(column: "pass_content", as: Data.self),
            accountBindingData: try row.decode(column: "account_binding_data", as: Data?.self),
            issuerBindingData: try row.decode(column: "issuer_binding_data", as: String?.self),
            keyHash: try row.decode(column: "key_hash", as: String?.self),
            updatedAt: date(try row.decode(column: "updated_at", as: Int64.self)),
            modifiedAt: try row.decode(column: "modified_at", as: Int64?.self).map(date),
            updateTag: try row.decode(column: "update_tag", as: Int64?.self) ?? 0)
    }

    /// The session of `row`, which holds only its identifier's hash, carrying `id`, the identifier it was found by.
    static func session(_ row: any SQLRow, id: String) throws -> ProvisioningSession {
        ProvisioningSession(
            id: id, passID: try uuid(row, "pass_id"),
            createdAt: date(try row.decode(column: "created_at", as: Int64.self)),
            expiresAt: date(try row.decode(column: "expires_at", as: Int64.self)),
            usedAt: try row.decode(column: "used_at", as: Int64?.self).map(date))
    }

    static func columns(of pass: ApplePass) -> [String: any Encodable & Sendable] {
        [
            "id": pass.id.uuidString, "tag_id": pass.tagID.uuidString, "pass_type_id": pass.passTypeID.uuidString,
            "serial_number": pass.serialNumber, "pass_content": pass.passContent,
            "account_binding_data": pass.accountBindingData, "issuer_binding_data": pass.issuerBindingData,
            "key_hash": pass.keyHash, "updated_at": ms(pass.updatedAt), "modified_at": ms(pass.modifiedAt),
            "update_tag": pass.updateTag,
        ]
    }
}
