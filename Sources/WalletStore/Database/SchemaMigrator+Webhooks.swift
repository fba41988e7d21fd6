import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Migration 10: webhooks through the push outbox.
    ///
    /// - `webhook_endpoints`: each client's endpoints (URL, the event types it takes); the signing secret is in the
    ///   secret store, never in the database.
    /// - `push_outbox` becomes the outbox of every delivery: `kind` (`NULL` or `apns` for a push, `webhook`), and for
    ///   a webhook its `endpoint_id`, `event_id`, `event_type`, `payload`, `sequence` (the trace event it came from:
    ///   deliveries of one pass to one endpoint go in that order), `failed_at` (kept, no longer sent, after a day of
    ///   retries) and `last_error`.
    static func createWebhooks(_ db: any SQLDatabase) async throws {
        try await db.create(table: "webhook_endpoints")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("client_id", type: .text, .notNull, .references("clients", "id"))
            .column("url", type: .text, .notNull)
            .column("event_types", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "webhook_endpoints_client").on("webhook_endpoints").column("client_id").run()
        for (column, type) in [
            ("kind", SQLDataType.text), ("endpoint_id", .text), ("event_id", .text), ("event_type", .text),
            ("payload", .text), ("sequence", .bigint), ("failed_at", .bigint), ("last_error", .text),
        ] {
            try await db.alter(table: "push_outbox").column(column, type: type).run()
        }
        try await db.create(index: "push_outbox_webhook_order").on("push_outbox").column("endpoint_id")
            .column("pass_id").column("sequence").run()
    }
}
