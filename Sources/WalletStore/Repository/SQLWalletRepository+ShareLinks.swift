import Foundation
import SQLKit
import WalletServices

extension SQLWalletRepository {
    /// Stores the link unless its pass has `maximumLinks` working ones, after deleting the pass's expired links, in one
    /// transaction that holds the pass's row (so concurrent creations count one after the other).
    package func createShareLink(_ link: ShareLink, maximumLinks: Int, now: Date) async throws -> Bool {
        try await run {
            try await database.transaction { db in
                try await Self.lockPass(link.passID, on: db)
                try await db.delete(from: ShareLinkRow.table)
                    .where(ShareLinkRow.column(.passID), .equal, SQLBind(link.passID.uuidString))
                    .where(ShareLinkRow.column(.expiresAt), .lessThanOrEqual, SQLBind(Self.ms(now))).run()
                let working =
                    try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count")
                    .from(ShareLinkRow.table)
                    .where(ShareLinkRow.column(.passID), .equal, SQLBind(link.passID.uuidString))
                    .where(Self.working(at: now))
                    .first(decodingColumn: "count", as: Int64.self) ?? 0
                guard working < maximumLinks else { return false }
                try await db.insert([ShareLinkRow(link)]).run()
                return true
            }
        }
    }

    /// The pass's links the client made, newest first.
    package func shareLinks(passID: UUID, clientID: UUID) async throws -> [ShareLink] {
        try await select(
            ShareLinkRow.self, where: [.passID: passID.uuidString, .clientID: clientID.uuidString], orderBy: .createdAt
        ).reversed().map { try $0.model() }
    }

    /// Deletes the client's link of the pass.
    package func deleteShareLink(id: UUID, passID: UUID, clientID: UUID) async throws -> Bool {
        try await run {
            try await sql.delete(from: ShareLinkRow.table)
                .where("id", .equal, id.uuidString).where("pass_id", .equal, passID.uuidString)
                .where("client_id", .equal, clientID.uuidString)
                .returning("id").all()
        }.count == 1
    }

    /// Gives the pass a new token (its salt and the token's hash) and ends what its holders had
    /// (``endHolders(ofPasses:on:)``), with its kept archive, in one transaction holding the pass's row.
    package func rotateAuthentication(
        passID: UUID, assignment: PassAuthenticationTokens.Assignment, now: Date
    ) async throws {
        try await run {
            try await database.transaction { db in
                try await Self.lockPass(passID, on: db)
                try await db.update(PassAuthenticationRow.table)
                    .set(PassAuthenticationRow.CodingKeys.authenticationSalt.stringValue, to: assignment.salt)
                    .set(PassAuthenticationRow.CodingKeys.authenticationTokenHash.stringValue, to: assignment.tokenHash)
                    .where("id", .equal, passID.uuidString).run()
                try await Self.endHolders(ofPasses: [passID.uuidString], on: db)
                try await db.delete(from: SignedPassArchiveRow.table).where("pass_id", .equal, passID.uuidString).run()
                try await Self.replaceGoogleObject(passID: passID, now: now, on: db)
            }
        }
    }

    /// The working link whose token hashes to `tokenHash`, joined with its pass's tag (of the link's own client) and
    /// pass type, in one query.
    package func sharedPass(tokenHash: Data, now: Date) async throws -> SharedPass? {
        let query = sql.select()
            .prefixedColumns(of: ShareLinkRow.self)
            .column(PassRow.column(.serialNumber), as: "serial_number")
            .column(PassTypeRow.column(.organizationName), as: "organization_name")
            .from(ShareLinkRow.table)
            .joiningPasses(on: ShareLinkRow.column(.passID))
            .join(TagRow.table, on: TagRow.column(.id), .equal, PassRow.column(.tagID))
            .joiningPassTypes()
            .where(ShareLinkRow.column(.tokenHash), .equal, SQLBind(tokenHash))
            .where(Self.working(at: now))
            // A pass moved to another client's tag is not reachable through this client's link.
            .where(TagRow.column(.clientID), .equal, ShareLinkRow.column(.clientID))
        guard let row = try await run({ try await query.first() }) else { return nil }
        let link = try row.decode(prefixed: ShareLinkRow.self).model()
        // The lookup matched on the hash already; compare again in constant time before trusting the row.
        guard SecretToken.constantTimeEquals(link.tokenHash, tokenHash) else { return nil }
        return SharedPass(
            link: link, serialNumber: try row.decode(column: "serial_number", as: String.self),
            organizationName: try row.decode(column: "organization_name", as: String.self))
    }

    /// Marks the link used, in one `UPDATE` that only a working link passes.
    package func useShareLink(id: UUID, now: Date) async throws -> Bool {
        try await run {
            try await sql.update(ShareLinkRow.table).set("used_at", to: Self.ms(now))
                .where("id", .equal, id.uuidString).where(Self.working(at: now))
                .returning("id").all()
        }.count == 1
    }

    /// Deletes up to `limit` links that expired at or before `now`.
    package func deleteExpiredShareLinks(now: Date, limit: Int) async throws -> Int {
        guard limit > 0 else { return 0 }
        let cutoff = Self.ms(now)
        return try await run {
            try await sql.raw(
                """
                DELETE FROM share_links WHERE id IN \
                (SELECT id FROM share_links WHERE expires_at <= \(bind: cutoff) LIMIT \(bind: limit)) RETURNING id
                """
            ).all()
        }.count
    }

    /// A link works at `now`: it has not expired, and it is not a single-use link that was used.
    private static func working(at now: Date) -> SQLGroupExpression {
        let unspent = SQLGroupExpression(
            SQLBinaryExpression(
                SQLBinaryExpression(ShareLinkRow.column(.singleUse), .equal, SQLLiteral.numeric("0")), .or,
                SQLBinaryExpression(ShareLinkRow.column(.usedAt), .is, SQLLiteral.null)))
        return SQLGroupExpression(
            SQLBinaryExpression(
                SQLBinaryExpression(ShareLinkRow.column(.expiresAt), .greaterThan, SQLBind(ms(now))), .and, unspent))
    }
}
