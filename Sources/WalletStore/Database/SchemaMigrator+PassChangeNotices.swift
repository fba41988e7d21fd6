import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Migration 21: every change a pass's fetch depends on, notified to ``PostgresChangeWatch``'s channel in the
    /// transaction that makes it (PostgreSQL only; a SQLite file is watched whole).
    ///
    /// A pass updated or deleted notifies its identifier; a pass type changed or deleted, a user's account hash
    /// changed or a tag given to another user notifies `*` (any pass may depend on them).
    static func notifyPassChanges(_ db: any SQLDatabase) async throws {
        guard db.dialect.name == "postgresql" else { return }
        let channel = PostgresChangeWatch.channel
        try await db.raw(
            """
            CREATE FUNCTION coffer_notify_pass_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_notify('\(unsafeRaw: channel)', OLD.id); RETURN NULL; END $$
            """
        ).run()
        try await db.raw(
            """
            CREATE FUNCTION coffer_notify_every_pass_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_notify('\(unsafeRaw: channel)', '*'); RETURN NULL; END $$
            """
        ).run()
        try await db.raw(
            """
            CREATE TRIGGER apple_passes_changed AFTER UPDATE OR DELETE ON apple_passes
            FOR EACH ROW EXECUTE FUNCTION coffer_notify_pass_change()
            """
        ).run()
        for (table, change) in [
            ("pass_types", "UPDATE OR DELETE"), ("users", "UPDATE OF account_hash OR DELETE"),
            ("tags", "UPDATE OF user_id OR DELETE"),
        ] {
            try await db.raw(
                """
                CREATE TRIGGER \(unsafeRaw: table)_changed AFTER \(unsafeRaw: change) ON \(unsafeRaw: table)
                FOR EACH STATEMENT EXECUTE FUNCTION coffer_notify_every_pass_change()
                """
            ).run()
        }
    }
}
