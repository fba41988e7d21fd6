import Foundation
import SQLKit

extension SQLWalletRepository {
    /// Stores a landing link (its token's hash, never the token).
    public func createLandingLink(_ link: LandingLink) async throws {
        try await insert(
            "landing_links",
            [
                "token_hash": link.tokenHash, "pass_id": link.passID.uuidString, "client_id": link.clientID.uuidString,
                "created_at": Self.ms(link.createdAt), "expires_at": Self.ms(link.expiresAt),
            ])
    }

    /// The link whose token hashes to `tokenHash` and has not expired at `now`, joined with its pass's tag (of the
    /// link's own client) and pass type, in one query.
    public func landingTarget(tokenHash: Data, now: Date) async throws -> LandingTarget? {
        let links = ["token_hash", "pass_id", "client_id", "created_at", "expires_at"]
        let tags = ["reference_id", "pronto_tag_id", "subscription_id"]
        var query = database.sql.select()
        for column in links { query = query.column(SQLColumn(column, table: "landing_links"), as: column) }
        for column in tags { query = query.column(SQLColumn(column, table: "tags"), as: column) }
        let finished =
            query
            .column(SQLColumn("organization_name", table: "pass_types"), as: "organization_name")
            .from("landing_links")
            .joiningPasses(of: "landing_links")
            .join("tags", on: SQLColumn("id", table: "tags"), .equal, SQLColumn("tag_id", table: "apple_passes"))
            .joiningPassTypes()
            .where(SQLColumn("token_hash", table: "landing_links"), .equal, SQLBind(tokenHash))
            .where(SQLColumn("expires_at", table: "landing_links"), .greaterThan, SQLBind(Self.ms(now)))
            // A pass moved to another client's tag is not reachable through this client's link.
            .where(SQLColumn("client_id", table: "tags"), .equal, SQLColumn("client_id", table: "landing_links"))
        guard let row = try await run({ try await finished.first() }) else { return nil }
        let link = LandingLink(
            tokenHash: try row.decode(column: "token_hash", as: Data.self), passID: try Self.uuid(row, "pass_id"),
            clientID: try Self.uuid(row, "client_id"),
            createdAt: Self.date(try row.decode(column: "created_at", as: Int64.self)),
            expiresAt: Self.date(try row.decode(column: "expires_at", as: Int64.self)))
        // The lookup matched on the hash already; compare again in constant time before trusting the row.
        guard SecretToken.constantTimeEquals(link.tokenHash, tokenHash) else { return nil }
        let lookups: [(TagIDAttribute, String)] = [
            (.referenceID, "reference_id"), (.prontoTagID, "pronto_tag_id"), (.subscriptionID, "subscription_id"),
        ]
        for (attribute, column) in lookups {
            if let value = try row.decode(column: column, as: String?.self), !value.isEmpty {
                return LandingTarget(
                    link: link, tagAttribute: attribute, tagValue: value,
                    organizationName: try row.decode(column: "organization_name", as: String.self))
            }
        }
        // A tag with no identifier cannot be asked for issuer data.
        return nil
    }

    /// Deletes up to `limit` links that expired at or before `now`; returns how many it deleted.
    public func deleteExpiredLandingLinks(now: Date, limit: Int) async throws -> Int {
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
