import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Migration 6: what replicas, devices and several clients could break.
    ///
    /// - `coffer_counters`: named counters changed inside a transaction. `update_tag` hands out update tags, so that
    ///   they commit in the order they were given (its row lock holds every other change until the first commits),
    ///   starting above every tag already given.
    /// - `pass_registrations` keeps each registration's own push token, so that registering through one pass never
    ///   changes another pass's pushes; `wallet_devices`, which kept one token per device, goes.
    /// - `pass_type_clients`: which clients may issue under each pass type. Every pass type is granted to the
    ///   clients that already have passes of it.
    static func hardenForReplicasAndClients(_ db: any SQLDatabase) async throws {
        try await db.create(table: "coffer_counters")
            .column("name", type: .text, .primaryKey(autoIncrement: false))
            .column("value", type: .bigint, .notNull)
            .run()
        try await db.raw(
            """
            INSERT INTO coffer_counters (name, value) \
            SELECT 'update_tag', COALESCE(MAX(update_tag), 0) FROM apple_passes
            """
        ).run()

        try await db.raw(
            """
            CREATE TABLE pass_registrations_copy AS SELECT r.device_library_identifier, r.pass_id, d.push_token, \
            r.created_at FROM pass_registrations r JOIN wallet_devices d \
            ON d.device_library_identifier = r.device_library_identifier
            """
        ).run()
        try await db.drop(table: "pass_registrations").run()
        try await db.drop(table: "wallet_devices").run()
        try await db.create(table: "pass_registrations")
            .column("device_library_identifier", type: .text, .notNull)
            .column("pass_id", type: .text, .notNull, .references("apple_passes", "id"))
            .column("push_token", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .primaryKey("device_library_identifier", "pass_id")
            .run()
        try await db.create(index: "pass_registrations_pass").on("pass_registrations").column("pass_id").run()
        try await db.raw(
            """
            INSERT INTO pass_registrations (device_library_identifier, pass_id, push_token, created_at, updated_at) \
            SELECT device_library_identifier, pass_id, push_token, created_at, created_at FROM pass_registrations_copy
            """
        ).run()
        try await db.drop(table: "pass_registrations_copy").run()

        try await db.create(table: "pass_type_clients")
            .column("pass_type_id", type: .text, .notNull, .references("pass_types", "id"))
            .column("client_id", type: .text, .notNull, .references("clients", "id"))
            .column("created_at", type: .bigint, .notNull)
            .primaryKey("pass_type_id", "client_id")
            .run()
        try await db.raw(
            """
            INSERT INTO pass_type_clients (pass_type_id, client_id, created_at) \
            SELECT DISTINCT p.pass_type_id, t.client_id, 0 FROM apple_passes p JOIN tags t ON t.id = p.tag_id
            """
        ).run()
    }
}
