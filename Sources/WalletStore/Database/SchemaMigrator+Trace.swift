import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Migration 9: `pass_events`, each pass's trace: what happened to it, when, on which device (a keyed hash), in
    /// the order recorded (`id`), kept for the configured time.
    static func createPassEvents(_ db: any SQLDatabase) async throws {
        try await db.create(table: "pass_events")
            .column("id", type: .bigint, .primaryKey(autoIncrement: true))
            .column("pass_id", type: .text, .notNull)
            .column("occurred_at", type: .bigint, .notNull)
            .column("kind", type: .text, .notNull)
            .column("device", type: .text)
            .column("details", type: .text, .notNull)
            .run()
        try await db.create(index: "pass_events_pass").on("pass_events").column("pass_id").column("id").run()
        try await db.create(index: "pass_events_occurred").on("pass_events").column("occurred_at").run()
    }
}
