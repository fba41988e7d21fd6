import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Migration 16: Google Wallet objects.
    ///
    /// - `google_objects`: per pass, the object last written (its identifiers, the pass's update tag it holds, the
    ///   messages added to it) and what Google's callbacks said (saved, removed).
    /// - `google_notifications`: when each pass's holder was notified, so that a pass notifies at most three times a
    ///   day however many replicas write it.
    /// - `google_images`: the images objects and classes refer to, by their content's SHA-256, for Google to fetch.
    /// - `google_callback_nonces`: the nonces of callbacks accepted, until they expire, so that a callback counts
    ///   once.
    ///
    /// Writes wait in `push_outbox` as rows of kind `google` (`pass_id`, `pass_type_id`, and the notices as
    /// `payload`).
    static func createGoogleWalletTables(_ db: any SQLDatabase) async throws {
        try await db.create(table: "google_objects")
            .column("pass_id", type: .text, .primaryKey(autoIncrement: false), .references("apple_passes", "id"))
            .column("object_id", type: .text, .notNull)
            .column("class_id", type: .text, .notNull)
            .column("written_update_tag", type: .bigint, .notNull)
            .column("written_at", type: .bigint, .notNull)
            .column("messages", type: .text, .notNull)
            .column("saved_at", type: .bigint)
            .column("removed_at", type: .bigint)
            .run()
        try await db.create(index: "google_objects_object").on("google_objects").column("object_id").run()
        try await db.create(table: "google_notifications")
            .column("pass_id", type: .text, .notNull, .references("apple_passes", "id"))
            .column("sent_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "google_notifications_pass").on("google_notifications").column("pass_id")
            .column("sent_at").run()
        try await db.create(table: "google_images")
            .column("name", type: .text, .primaryKey(autoIncrement: false))
            .column("content", type: .blob, .notNull)
            .column("kept_at", type: .bigint, .notNull)
            .run()
        try await db.create(table: "google_callback_nonces")
            .column("nonce", type: .text, .primaryKey(autoIncrement: false))
            .column("expires_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "google_callback_nonces_expiry").on("google_callback_nonces").column("expires_at")
            .run()
        try await db.create(index: "push_outbox_pass_kind").on("push_outbox").column("pass_id").column("kind").run()
    }
}
