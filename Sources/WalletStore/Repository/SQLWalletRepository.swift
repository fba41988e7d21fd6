import Foundation
import SQLKit
import WalletDocuments
import WalletPasses
import WalletServices

/// `WalletRepository` in SQL, written once over SQLKit for SQLite and PostgreSQL.
///
/// Identifiers are stored as text, times as integer milliseconds since 1970, so that both engines store and
/// compare them identically.
public struct SQLWalletRepository: WalletRepository {
    let database: WalletDatabase
    var sql: any SQLDatabase { database.sql }
    /// Commits the provisioning flow's concurrent writes together (one transaction, one sync).
    private let writes: GroupCommit<ProvisioningWrite, ProvisioningSession?>
    /// Commits concurrent callers' trace events together.
    let traceWrites: GroupCommit<[NewPassEvent], Bool>
    /// Commits the outbox deliveries that the dispatcher completes at once together (one transaction, one sync).
    let completions: GroupCommit<DeliveryCompletion, Bool>
    /// API users who authenticated recently, kept for ``authenticationLifetime``.
    private let recentlyAuthenticated: RecentlyAuthenticated
    /// The web services' hottest reads, serialized once.
    let lookups: Lookups

    /// How long an authenticated API user is trusted without reading the database again: the longest time a user
    /// revoked elsewhere (by `coffer admin` or another server on the same database) can still authenticate here.
    package var authenticationLifetime: Duration { recentlyAuthenticated.lifetime }

    /// Creates a repository; run ``SchemaMigrator/migrate()`` on the database first.
    ///
    /// - Parameter authenticationLifetime: how long an API user who authenticated is trusted without reading the
    ///   database again (zero: never). A revocation made through this repository takes effect at once.
    public init(database: WalletDatabase, authenticationLifetime: Duration = .seconds(5)) {
        self.database = database
        self.recentlyAuthenticated = RecentlyAuthenticated(lifetime: authenticationLifetime)
        self.lookups = Lookups(on: database.sql)
        self.writes = GroupCommit { batch in try await Self.commit(batch, to: database) }
        self.traceWrites = GroupCommit(maximumBatchSize: 256) { batch in
            try await Self.commitPassEvents(batch, to: database)
        }
        self.completions = GroupCommit(maximumBatchSize: 256) { batch in
            try await Self.commitCompletions(batch, to: database)
        }
    }

    // MARK: Clients

    /// Creates a client.
    public func createClient(name: String) async throws -> Client {
        let client = Client(name: name)
        try await insert(ClientRow(client))
        return client
    }

    /// The client with `id`.
    public func client(id: UUID) async throws -> Client? {
        try await select(ClientRow.self, where: [.id: id.uuidString]).first?.model()
    }

    /// Every client, oldest first.
    package func clients() async throws -> [Client] {
        try await select(ClientRow.self, orderBy: .createdAt).map { try $0.model() }
    }

    // MARK: API users

    /// Creates an API user and returns it with its token; only the token's hash is stored.
    package func createAPIUser(clientID: UUID, name: String) async throws -> (apiUser: APIUser, token: String) {
        guard try await client(id: clientID) != nil else { throw WalletServerError.notFound("client \(clientID)") }
        let token = SecretToken.makeAPIToken()
        let user = APIUser(clientID: clientID, name: name, tokenHash: SecretToken.hash(token))
        try await insert(APIUserRow(user))
        return (user, token)
    }

    /// The active (not revoked) API user whose token this is.
    ///
    /// A user who authenticated less than ``authenticationLifetime`` ago is answered from memory.
    package func apiUser(token: String) async throws -> APIUser? {
        let hash = SecretToken.hash(token)
        if let user = recentlyAuthenticated.user(tokenHash: hash) { return user }
        guard let user = try await select(APIUserRow.self, where: [.tokenHash: hash]).first?.model() else {
            return nil
        }
        // The lookup matched on the hash already; compare again in constant time before trusting the row.
        guard SecretToken.constantTimeEquals(user.tokenHash, hash), user.revokedAt == nil else { return nil }
        recentlyAuthenticated.keep(user, tokenHash: hash)
        return user
    }

    /// The client's API users (revoked ones included), oldest first.
    package func apiUsers(clientID: UUID) async throws -> [APIUser] {
        try await select(APIUserRow.self, where: [.clientID: clientID.uuidString], orderBy: .createdAt).map {
            try $0.model()
        }
    }

    /// Revokes an API user; returns whether an active one was revoked.
    package func revokeAPIUser(id: UUID) async throws -> Bool {
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
        try await insert(UserRow(user))
        return user
    }

    /// The user with `id`.
    public func user(id: UUID) async throws -> User? {
        try await select(UserRow.self, where: [.id: id.uuidString]).first?.model()
    }

    /// The client's users, oldest first.
    package func users(clientID: UUID) async throws -> [User] {
        try await select(UserRow.self, where: [.clientID: clientID.uuidString], orderBy: .createdAt).map {
            try $0.model()
        }
    }

    // MARK: Pass types

    /// Stores a pass type.
    public func createPassType(_ passType: PassType) async throws {
        try await insert(PassTypeRow(passType))
    }

    /// Changes a pass type's organization name, binding learn-more page and identity paths, if its stored identity
    /// paths are still `previous`'s (one statement, so a concurrent change on another replica makes it return
    /// `false` rather than be overwritten).
    package func updatePassType(_ passType: PassType, replacing previous: PassType) async throws -> Bool {
        let row = PassTypeRow(passType)
        return try await run {
            var update = sql.update(PassTypeRow.table)
                .set("organization_name", to: row.organizationName)
                .set("binding_learn_more_url", to: row.bindingLearnMoreURL)
                .set("signing_key_path", to: row.signingKeyPath)
                .set("next_signing_key_path", to: row.nextSigningKeyPath)
                .set("next_activates_at", to: row.nextActivatesAt)
                .set("retired_signing_key_path", to: row.retiredSigningKeyPath)
                .where("id", .equal, previous.id.uuidString)
            for (column, value) in [
                ("signing_key_path", previous.signingKeyPath as String?),
                ("next_signing_key_path", previous.nextSigningKeyPath),
                ("retired_signing_key_path", previous.retiredSigningKeyPath),
            ] {
                update = update.where(
                    SQLBinaryExpression(
                        left: SQLIdentifier(column), op: SQLRaw("IS NOT DISTINCT FROM"), right: SQLBind(value)))
            }
            return try await update.returning("id").all().count == 1
        }
    }

    /// Sets (or, with `nil`, clears) the pass type's Google Wallet issuer; returns whether the pass type exists.
    package func setGoogleIssuer(passTypeID: UUID, issuerID: String?, mayUseMerchantLocations: Bool) async throws
        -> Bool
    {
        try await run {
            try await sql.update(PassTypeRow.table).set("google_issuer_id", to: issuerID)
                .set("google_merchant_locations", to: mayUseMerchantLocations ? 1 : 0)
                .where("id", .equal, passTypeID.uuidString).returning("id").all()
        }.count == 1
    }

    /// The pass type with `id`.
    public func passType(id: UUID) async throws -> PassType? {
        try await select(PassTypeRow.self, where: [.id: id.uuidString]).first?.model()
    }

    /// Every pass type.
    package func passTypes() async throws -> [PassType] {
        try await select(PassTypeRow.self, orderBy: .createdAt).map { try $0.model() }
    }

    // MARK: Tags

    /// Stores a tag.
    public func createTag(_ tag: ClientTag) async throws {
        guard let user = try await user(id: tag.userID), user.clientID == tag.clientID else {
            throw WalletServerError.notFound("user \(tag.userID) of client \(tag.clientID)")
        }
        try await insert(TagRow(tag))
    }

    /// Stores tags with their passes in one transaction (a few multi-row statements): all of them or none, with the
    /// passes' first Google Wallet writes when their pass type has a Google issuer.
    package func createTags(_ tags: [(tag: ClientTag, pass: StoredPass)]) async throws {
        for (userID, clientID) in Dictionary(tags.map { ($0.tag.userID, $0.tag.clientID) }, uniquingKeysWith: { $1 }) {
            guard let user = try await user(id: userID), user.clientID == clientID else {
                throw WalletServerError.notFound("user \(userID) of client \(clientID)")
            }
        }
        try await run {
            try await database.transaction { db in
                // A thousand rows a statement keeps every statement under both engines' limits on parameters.
                for chunk in stride(from: 0, to: tags.count, by: 1000).map({ tags[$0..<min($0 + 1000, tags.count)] }) {
                    try await db.insert(chunk.map { TagRow($0.tag) }).run()
                    try await db.insert(chunk.map { PassRow($0.pass) }).run()
                    try await Self.queueFirstGoogleWrites(passIDs: chunk.map(\.pass.id), now: Date(), on: db)
                }
            }
        }
    }

    /// The tag with `id`.
    public func tag(id: UUID) async throws -> ClientTag? {
        try await select(TagRow.self, where: [.id: id.uuidString]).first?.model()
    }

    /// The client's tag whose `attribute` is `value`.
    public func tag(clientID: UUID, attribute: TagIDAttribute, value: String) async throws -> ClientTag? {
        try await select(TagRow.self, where: [.clientID: clientID.uuidString, TagRow.key(attribute): value]).first?
            .model()
    }

    /// The client's tags, oldest first.
    public func tags(clientID: UUID) async throws -> [ClientTag] {
        try await select(TagRow.self, where: [.clientID: clientID.uuidString], orderBy: .createdAt).map {
            try $0.model()
        }
    }

    // MARK: Provisioning targets

    /// The pass of the client's tag whose `attribute` is `value`, with its tag, user and pass type, read together.
    package func provisioningTarget(clientID: UUID, attribute: TagIDAttribute, value: String) async throws
        -> ProvisioningTarget?
    {
        guard let statement = lookups.provisioningTargets[attribute] else { return nil }
        return try await provisioningTarget(of: statement.bound(to: [clientID.uuidString, value]))
    }

    /// The pass with `passID`, with its tag, user and pass type, read together.
    package func provisioningTarget(passID: UUID) async throws -> ProvisioningTarget? {
        try await provisioningTarget(of: lookups.provisioningTarget.bound(to: [passID.uuidString]))
    }

    /// What an issuance needs about the pass of the client's tag whose `attribute` is `value`, read in one query.
    package func issuanceTarget(clientID: UUID, attribute: TagIDAttribute, value: String) async throws
        -> IssuanceTarget?
    {
        guard
            let statement = lookups.issuanceTargets[attribute],
            let row = try await firstRow(of: statement.bound(to: [clientID.uuidString, value]))
        else { return nil }
        let target = try row.decode(model: IssuanceTargetRow.self)
        return IssuanceTarget(
            tagID: try TagRow.uuid(target.tagID, .id), passID: try PassRow.uuid(target.passID, .id),
            serialNumber: target.serialNumber, passType: try row.decode(prefixed: PassTypeRow.self).model(),
            user: try row.decode(prefixed: UserRow.self).model(), clientMayIssue: target.grantedClientID != nil)
    }

    /// The pass, with its tag, user and pass type, of the row `statement` (a provisioning target lookup) finds.
    private func provisioningTarget(of statement: SerializedSelect.Statement) async throws -> ProvisioningTarget? {
        guard let row = try await firstRow(of: statement) else { return nil }
        return ProvisioningTarget(
            tag: try row.decode(prefixed: TagRow.self).model(), pass: try row.decode(prefixed: PassRow.self).model(),
            passType: try row.decode(prefixed: PassTypeRow.self).model(),
            user: try row.decode(prefixed: UserRow.self).model())
    }

    /// `query` from a tag joined to its pass, the pass type and the tag's user; `includingGrant` joins
    /// `pass_type_clients` too (left: its columns are `NULL` when the tag's client may not issue under the pass type).
    static func joinedTarget(_ query: SQLSelectBuilder, includingGrant: Bool = false) -> SQLSelectBuilder {
        let joined = query.from(TagRow.table)
            .join(PassRow.table, on: PassRow.column(.tagID), .equal, TagRow.column(.id))
            .joiningPassTypes()
            .join(UserRow.table, on: UserRow.column(.id), .equal, TagRow.column(.userID))
        guard includingGrant else { return joined }
        return joined.join(
            PassTypeClientRow.table, method: .left,
            equating: [
                (PassTypeClientRow.column(.passTypeID), PassRow.column(.passTypeID)),
                (PassTypeClientRow.column(.clientID), TagRow.column(.clientID)),
            ])
    }

    // MARK: Passes

    /// Stores a pass, and queues its first Google Wallet write when its pass type has a Google issuer.
    public func createPass(_ pass: StoredPass) async throws {
        try await run {
            try await database.transaction { db in
                try await db.insert([PassRow(pass)]).run()
                try await Self.queueFirstGoogleWrites(passIDs: [pass.id], now: Date(), on: db)
            }
        }
    }

    /// The pass of a tag.
    public func pass(tagID: UUID) async throws -> StoredPass? {
        try await select(PassRow.self, where: [.tagID: tagID.uuidString]).first?.model()
    }

    /// The pass with `id`.
    public func pass(id: UUID) async throws -> StoredPass? {
        try await select(PassRow.self, where: [.id: id.uuidString]).first?.model()
    }

    /// Replaces a pass's mutable fields (content, binding data, key hash, update time).
    package func updatePass(_ pass: StoredPass) async throws {
        let mutable = Set(PassRow.mutableColumns.map(\.stringValue))
        var update = sql.update(PassRow.table)
        for (column, value) in try SQLQueryEncoder(nilEncodingStrategy: .asNil).encode(PassRow(pass))
        where mutable.contains(column) {
            update = update.set(SQLIdentifier(column), to: value)
        }
        let finished = update.where("id", .equal, pass.id.uuidString)
        try await run { try await finished.run() }
    }

    /// Stores what a device's callback bound (and its new token, when given), and spends the pass's landing links.
    package func recordBinding(_ pass: StoredPass, authentication: PassAuthenticationTokens.Assignment? = nil)
        async throws
    {
        _ = try await run { try await writes.submit(.binding(pass, authentication)) }
    }

    // MARK: Sessions

    /// Records a provisioning session, under the SHA-256 of its identifier (never the identifier itself).
    package func createSession(_ session: ProvisioningSession) async throws {
        try await insert(SessionRow(session))
    }

    /// Stores the pass's new binding data (only the columns an issuance owns), ends the pass's open sessions and
    /// opens the new one, atomically, and returns once that is durable. Writes that arrive while others are being
    /// committed are committed together, in one transaction and one sync.
    package func recordIssuance(_ issuance: Issuance) async throws {
        _ = try await run { try await writes.submit(.issuance(issuance)) }
    }

    /// Marks the session used if it exists, is unused and has not expired at `now`, atomically; returns it, or `nil`
    /// when it cannot be used (so a replayed or unknown session is refused). It is looked up by the hash of `id`.
    package func consumeSession(id: String, now: Date) async throws -> ProvisioningSession? {
        // One statement is the gate (see `commitConsumptions`): only the caller whose UPDATE changes the row gets it
        // back, however many race.
        try await run { try await writes.submit(.consumption(sessionID: id, now: now)) }
    }

    /// Deletes up to `limit` sessions that expired at or before `now` (used or not: no callback can use them);
    /// returns how many it deleted.
    package func deleteExpiredSessions(now: Date, limit: Int) async throws -> Int {
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

    /// Inserts `rows` into their table, in one statement.
    func insert<Row: TableRow>(_ rows: Row...) async throws {
        try await run { try await sql.insert(rows).run() }
    }

    /// The rows of `Row`'s table where each column of `conditions` has its value, ordered by `orderBy` when given.
    func select<Row: TableRow>(
        _ row: Row.Type, where conditions: KeyValuePairs<Row.CodingKeys, any Encodable & Sendable> = [:],
        orderBy: Row.CodingKeys? = nil
    ) async throws -> [Row] {
        var query = sql.select().columns(of: Row.self).from(Row.table)
        for (column, value) in conditions { query = query.where(Row.column(column), .equal, SQLBind(value)) }
        if let orderBy { query = query.orderBy(Row.column(orderBy)) }
        let finished = query
        return try await run { try await finished.all(decoding: Row.self) }
    }

    /// Maps driver errors to typed ones by their codes (``DatabaseErrorKind``): a unique-constraint violation is a
    /// conflict, a foreign-key violation a missing record, anything else that is not already typed means the
    /// database could not do the work.
    func run<R>(_ body: () async throws -> R) async throws -> R {
        do {
            return try await body()
        } catch let error as WalletServerError {
            throw error
        } catch let error as WalletDocumentError {
            // A pass's content that cannot be read or rewritten (inside a transaction that changes it).
            throw error
        } catch let error as PassManagementFailure {
            // A change the caller's rewrite refused (inside a transaction that changes an order).
            throw error
        } catch {
            switch DatabaseErrorKind(error) {
            case .uniqueViolation: throw WalletServerError.conflict("a record with the same key")
            case .foreignKeyViolation: throw WalletServerError.notFound("a referenced record")
            case .invalidValue:
                throw WalletServerError.invalidArgument("a value the database cannot store (a NUL character, say)")
            case .undefinedTable, .other:
                throw WalletServerError.databaseUnavailable(String(describing: type(of: error)))
            }
        }
    }

    /// `date` as stored: whole milliseconds since 1970.
    static func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    /// The date stored as `ms`, milliseconds since 1970.
    static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }
}
