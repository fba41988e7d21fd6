import Foundation
import SQLKit
import WalletServices

extension SQLWalletRepository {
    /// Stores a landing link (its token's hash, never the token).
    package func createLandingLink(_ link: LandingLink) async throws {
        try await insert(LandingLinkRow(link))
    }

    /// The link whose token hashes to `tokenHash` and has not expired at `now`, joined with its pass's tag (of the
    /// link's own client) and pass type, in one query.
    package func landingTarget(tokenHash: Data, now: Date) async throws -> LandingTarget? {
        let query = sql.select()
            .prefixedColumns(of: LandingLinkRow.self).prefixedColumns(of: TagRow.self)
            .prefixedColumns(of: PassTypeRow.self)
            .from(LandingLinkRow.table)
            .joiningPasses(on: LandingLinkRow.column(.passID))
            .join(TagRow.table, on: TagRow.column(.id), .equal, PassRow.column(.tagID))
            .joiningPassTypes()
            .where(LandingLinkRow.column(.tokenHash), .equal, SQLBind(tokenHash))
            .where(LandingLinkRow.column(.expiresAt), .greaterThan, SQLBind(Self.ms(now)))
            // A pass moved to another client's tag is not reachable through this client's link.
            .where(TagRow.column(.clientID), .equal, LandingLinkRow.column(.clientID))
        guard let row = try await run({ try await query.first() }) else { return nil }
        let link = try row.decode(prefixed: LandingLinkRow.self).model()
        // The lookup matched on the hash already; compare again in constant time before trusting the row.
        guard SecretToken.constantTimeEquals(link.tokenHash, tokenHash) else { return nil }
        let tag = try row.decode(prefixed: TagRow.self)
        let organizationName = try row.decode(prefixed: PassTypeRow.self).organizationName
        let lookups: [(TagIDAttribute, String?)] = [
            (.referenceID, tag.referenceID), (.prontoTagID, tag.prontoTagID), (.subscriptionID, tag.subscriptionID),
        ]
        for case (let attribute, let value?) in lookups where !value.isEmpty {
            return LandingTarget(
                link: link, tagAttribute: attribute, tagValue: value, organizationName: organizationName)
        }
        // A tag with no identifier cannot be asked for issuer data.
        return nil
    }

    /// Deletes up to `limit` links that expired at or before `now`; returns how many it deleted.
    package func deleteExpiredLandingLinks(now: Date, limit: Int) async throws -> Int {
        guard limit > 0 else { return 0 }
        let cutoff = Self.ms(now)
        let rows = try await run {
            try await database.sql.raw(
                """
                DELETE FROM landing_links WHERE token_hash IN \
                (SELECT token_hash FROM landing_links WHERE expires_at <= \(bind: cutoff) LIMIT \(bind: limit)) \
                RETURNING pass_id
                """
            ).all()
        }
        return rows.count
    }
}
