import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Migration 8: what hands passes out.
    ///
    /// - `signed_pass_archives`: each pass's last signed `.pkpass`, with the version of everything it was signed
    ///   from (`PassArchiveVersion`): a fetch of a pass that has not changed serves it without a new signature.
    /// - `share_links`: expiring links that serve a pass to a phone, under the SHA-256 of their token (never the
    ///   token), revocable and optionally single-use.
    static func createDistributionTables(_ db: any SQLDatabase) async throws {
        try await db.create(table: "signed_pass_archives")
            .column("pass_id", type: .text, .primaryKey(autoIncrement: false), .references("apple_passes", "id"))
            .column("version", type: .blob, .notNull)
            .column("pkpass", type: .blob, .notNull)
            .column("signed_at", type: .bigint, .notNull)
            .run()
        try await db.create(table: "share_links")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("token_hash", type: .blob, .notNull, .unique)
            .column("pass_id", type: .text, .notNull, .references("apple_passes", "id"))
            .column("client_id", type: .text, .notNull, .references("clients", "id"))
            .column("single_use", type: .bigint, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("used_at", type: .bigint)
            .run()
        try await db.create(index: "share_links_pass").on("share_links").column("pass_id").run()
        try await db.create(index: "share_links_expires").on("share_links").column("expires_at").run()
    }
}
