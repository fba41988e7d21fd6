import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Migration 14: renewed identities, and notices of certificates about to expire.
    ///
    /// - `pass_types` gains `next_signing_key_path` and `next_activates_at` (a renewed identity waiting beside the
    ///   current one, and when it takes over) and `retired_signing_key_path` (the replaced one, kept until it
    ///   expires).
    /// - `pass_type_certificate_notices`: which `pass_type.certificate_expiring` thresholds were queued for which
    ///   certificate end, so that each goes out once however many replicas look.
    /// - `push_outbox` gains `pass_type_id`, and `pass_id` may be empty: a webhook about a pass type has no pass.
    static func stageRenewedIdentities(_ db: any SQLDatabase) async throws {
        for (column, type) in [
            ("next_signing_key_path", SQLDataType.text), ("next_activates_at", .bigint),
            ("retired_signing_key_path", .text),
        ] {
            try await db.alter(table: "pass_types").column(column, type: type).run()
        }
        try await db.create(table: "pass_type_certificate_notices")
            .column("pass_type_id", type: .text, .notNull, .references("pass_types", "id"))
            .column("certificate_end", type: .bigint, .notNull)
            .column("threshold_days", type: .bigint, .notNull)
            .column("queued_at", type: .bigint, .notNull)
            .primaryKey("pass_type_id", "certificate_end", "threshold_days")
            .run()
        if db.dialect.name == "postgresql" {
            try await db.raw("ALTER TABLE push_outbox ALTER COLUMN pass_id DROP NOT NULL").run()
            try await db.alter(table: "push_outbox").column("pass_type_id", type: .text).run()
            return
        }
        // SQLite changes a column's constraints only by copying the table.
        try await db.create(table: "push_outbox_copy")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("pass_id", type: .text)
            .column("device_library_identifier", type: .text, .notNull)
            .column("attempts", type: .bigint, .notNull)
            .column("next_attempt_at", type: .bigint, .notNull)
            .column("leased_until", type: .bigint)
            .column("created_at", type: .bigint, .notNull)
            .column("kind", type: .text).column("endpoint_id", type: .text).column("event_id", type: .text)
            .column("event_type", type: .text).column("payload", type: .text).column("sequence", type: .bigint)
            .column("failed_at", type: .bigint).column("last_error", type: .text).column("pass_type_id", type: .text)
            .run()
        let columns =
            "id, pass_id, device_library_identifier, attempts, next_attempt_at, leased_until, created_at, kind, "
            + "endpoint_id, event_id, event_type, payload, sequence, failed_at, last_error"
        try await db.raw(
            "INSERT INTO push_outbox_copy (\(unsafeRaw: columns)) SELECT \(unsafeRaw: columns) FROM push_outbox"
        ).run()
        try await db.drop(table: "push_outbox").run()
        try await db.raw("ALTER TABLE push_outbox_copy RENAME TO push_outbox").run()
        try await db.create(index: "push_outbox_due").on("push_outbox").column("next_attempt_at").run()
        try await db.create(index: "push_outbox_webhook_order").on("push_outbox").column("endpoint_id")
            .column("pass_id").column("sequence").run()
    }
}
