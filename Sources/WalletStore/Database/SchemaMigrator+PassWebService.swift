import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Migration 5: what a pass needs after it is issued.
    ///
    /// - `apple_passes` gains the web service's columns: `authentication_salt` and `authentication_token_hash` (the
    ///   pass's `authenticationToken` is derived from the salt under a server key and stored only as its SHA-256),
    ///   `modified_at` (the `Last-Modified` of its content, milliseconds, whole seconds apart from one change to the
    ///   next) and `update_tag` (the opaque tag devices list updated passes by).
    /// - `pass_types` gains `template`: the pass type's template folder as an archive.
    /// - `wallet_devices` and `pass_registrations`: the devices Wallet registered for updates, and which passes.
    /// - `push_outbox`: the pushes still to send, durable across restarts and shared by replicas.
    /// - `pass_personalizations`, `device_logs`, `idempotency_keys` and `landing_links`: personalization requests,
    ///   the logs devices send, the management API's idempotency keys, and the web flow's landing-page links.
    static func createPassWebServiceTables(_ db: any SQLDatabase) async throws {
        for (column, type) in [
            ("authentication_salt", SQLDataType.text), ("authentication_token_hash", .blob), ("modified_at", .bigint),
            ("update_tag", .bigint),
        ] {
            try await db.alter(table: "apple_passes").column(column, type: type).run()
        }
        try await db.update("apple_passes").set("modified_at", to: SQLColumn("updated_at"))
            .set("update_tag", to: SQLLiteral.numeric("0")).run()
        try await db.create(index: "apple_passes_update_tag").on("apple_passes").column("update_tag").run()
        try await db.alter(table: "pass_types").column("template", type: .blob).run()
        try await db.create(table: "wallet_devices")
            .column("device_library_identifier", type: .text, .primaryKey(autoIncrement: false))
            .column("push_token", type: .text, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .run()
        try await db.create(table: "pass_registrations")
            .column(
                "device_library_identifier", type: .text, .notNull,
                .references("wallet_devices", "device_library_identifier")
            )
            .column("pass_id", type: .text, .notNull, .references("apple_passes", "id"))
            .column("created_at", type: .bigint, .notNull)
            .primaryKey("device_library_identifier", "pass_id")
            .run()
        try await db.create(index: "pass_registrations_pass").on("pass_registrations").column("pass_id").run()
        try await db.create(table: "push_outbox")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("pass_id", type: .text, .notNull)
            .column("device_library_identifier", type: .text, .notNull)
            .column("attempts", type: .bigint, .notNull)
            .column("next_attempt_at", type: .bigint, .notNull)
            .column("leased_until", type: .bigint)
            .column("created_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "push_outbox_due").on("push_outbox").column("next_attempt_at").run()
        try await db.create(table: "pass_personalizations")
            .column("pass_id", type: .text, .primaryKey(autoIncrement: false), .references("apple_passes", "id"))
            .column("fields", type: .blob, .notNull)
            .column("personalized_at", type: .bigint, .notNull)
            .run()
        try await db.create(table: "device_logs")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("received_at", type: .bigint, .notNull)
            .column("message", type: .text, .notNull)
            .run()
        try await db.create(index: "device_logs_received").on("device_logs").column("received_at").run()
        try await db.create(table: "idempotency_keys")
            .column("client_id", type: .text, .notNull, .references("clients", "id"))
            .column("idempotency_key", type: .text, .notNull)
            .column("request_hash", type: .blob, .notNull)
            .column("response_status", type: .bigint)
            .column("response_body", type: .blob)
            .column("created_at", type: .bigint, .notNull)
            .primaryKey("client_id", "idempotency_key")
            .run()
        try await db.create(index: "idempotency_keys_created").on("idempotency_keys").column("created_at").run()
        try await db.create(table: "landing_links")
            .column("token_hash", type: .blob, .primaryKey(autoIncrement: false))
            .column("pass_id", type: .text, .notNull, .references("apple_passes", "id"))
            .column("client_id", type: .text, .notNull, .references("clients", "id"))
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "landing_links_expires").on("landing_links").column("expires_at").run()
    }
}
