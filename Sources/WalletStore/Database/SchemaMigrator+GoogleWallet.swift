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

extension SchemaMigrator {
    /// Migration 18: Google Wallet objects of one pass each, replaced when the pass's token is.
    ///
    /// - `google_objects` is made anew with `object_id` unique, so that no two passes ever write one object; its row
    ///   is made when the pass's object identifier is first handed out (a save link, a write), before anything is
    ///   written (`written_*` empty until then), so that a callback for an object not yet written finds its pass.
    ///   `generation` counts the object's replacements (a rotated token), `retired_object_id` is the replaced object
    ///   still to be set `INACTIVE`, and `written_digest` the SHA-256 of the object last written (its messages
    ///   aside).
    /// - `google_classes`: per class, what it was last given (`digest`, the SHA-256 of its JSON with its messages),
    ///   from which pass's change (`source_update_tag`: the newest change wins), its messages, when it last notified
    ///   holders, and whether Google took it (`confirmed`) or a writer holds it (`leased_until`), so that a change to
    ///   what every pass of a class shares is one class write on every replica together. Of rows that shared
    ///   an object identifier before, the one of the lowest pass identifier keeps it; the others' passes get objects
    ///   of their own at their next write.
    /// - `pass_types.google_merchant_locations`: whether Google allowlisted the issuer for `merchantLocations`.
    static func separateGoogleObjects(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "pass_types").column(
            "google_merchant_locations", type: .bigint, .notNull, .default(SQLLiteral.numeric("0"))
        ).run()
        try await db.create(table: "google_objects_v18")
            .column("pass_id", type: .text, .primaryKey(autoIncrement: false), .references("apple_passes", "id"))
            .column("object_id", type: .text, .notNull, .unique)
            .column("generation", type: .bigint, .notNull, .default(SQLLiteral.numeric("0")))
            .column("class_id", type: .text)
            .column("written_update_tag", type: .bigint)
            .column("written_digest", type: .text)
            .column("written_at", type: .bigint)
            .column("retired_object_id", type: .text)
            .column("messages", type: .text, .notNull)
            .column("saved_at", type: .bigint)
            .column("removed_at", type: .bigint)
            .run()
        try await db.raw(
            """
            INSERT INTO google_objects_v18 (pass_id, object_id, class_id, written_update_tag, written_at, messages, \
            saved_at, removed_at) SELECT pass_id, object_id, class_id, written_update_tag, written_at, messages, \
            saved_at, removed_at FROM google_objects o WHERE o.pass_id = \
            (SELECT MIN(f.pass_id) FROM google_objects f WHERE f.object_id = o.object_id)
            """
        ).run()
        try await db.drop(table: "google_objects").run()
        try await db.raw("ALTER TABLE google_objects_v18 RENAME TO google_objects").run()
        try await db.create(table: "google_classes")
            .column("class_id", type: .text, .primaryKey(autoIncrement: false))
            .column("digest", type: .text, .notNull)
            .column("source_update_tag", type: .bigint, .notNull)
            .column("messages", type: .text, .notNull)
            .column("notified", type: .text, .notNull)
            .column("confirmed", type: .bigint, .notNull)
            .column("leased_until", type: .bigint, .notNull)
            .column("written_at", type: .bigint)
            .run()
    }
}

extension SchemaMigrator {
    /// Migration 19: Google Wallet writes claimed by lane, so that a claim reads a few writes of each lane however
    /// long the backlog.
    ///
    /// - `push_outbox.client_id`: the client of a Google write's pass (its tag's), filled in for the writes waiting.
    /// - `push_outbox_google_lane`: the writes not given up of each lane (pass type and client), in the order they
    ///   are claimed.
    /// - `push_outbox_kind_lease`: the rows of a kind by lease, so that the leases held are counted without a scan.
    static func laneGoogleWrites(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "push_outbox").column("client_id", type: .text).run()
        try await db.raw(
            """
            UPDATE push_outbox SET client_id = (SELECT t.client_id FROM apple_passes p JOIN tags t ON t.id = p.tag_id \
            WHERE p.id = push_outbox.pass_id) WHERE kind = 'google'
            """
        ).run()
        try await db.raw(
            """
            CREATE INDEX push_outbox_google_lane ON push_outbox \
            (kind, pass_type_id, client_id, next_attempt_at, created_at, id) WHERE failed_at IS NULL
            """
        ).run()
        try await db.create(index: "push_outbox_kind_lease").on("push_outbox").column("kind").column("leased_until")
            .run()
    }
}
