import SQLKit
import WalletOrders
import WalletServices

extension SchemaMigrator {
    /// Migration 17: Apple Wallet orders.
    ///
    /// - `pass_types.kind`: `pass`, or `order` for an Order Type ID, whose identity is imported, renewed and shared
    ///   like a pass type's.
    /// - `orders`: each order of a client under an order type, its unsigned package (`content`), its token's salt and
    ///   hash (as a pass's), its `Last-Modified` (`modified_at`, whole seconds apart from one change to the next) and
    ///   its update tag (from the `update_tag` counter passes use).
    /// - `order_storage`: how many bytes each client's orders hold, kept in the transactions that change them, so that
    ///   a quota holds on every replica.
    /// - `order_registrations`: the devices registered for an order's updates, each with its push token for the order;
    ///   their pushes wait in `push_outbox` with the kind `order` and the order in `pass_id` (indexed by kind and due
    ///   time, so that claiming them never scans the passes' pushes).
    static func createOrderTables(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "pass_types").column(
            "kind", type: .text, .notNull, .default(SQLLiteral.string("pass"))
        )
        .run()
        try await db.create(table: "orders")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("client_id", type: .text, .notNull, .references("clients", "id"))
            .column("order_type_id", type: .text, .notNull, .references("pass_types", "id"))
            .column("order_identifier", type: .text, .notNull)
            .column("content", type: .blob, .notNull)
            .column("authentication_salt", type: .text, .notNull)
            .column("authentication_token_hash", type: .blob, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("modified_at", type: .bigint, .notNull)
            .column("update_tag", type: .bigint, .notNull)
            .unique("order_type_id", "order_identifier")
            .run()
        try await db.create(index: "orders_client").on("orders").column("client_id").column("created_at").run()
        try await db.create(index: "orders_update_tag").on("orders").column("update_tag").run()
        try await db.create(table: "order_registrations")
            .column("device_library_identifier", type: .text, .notNull)
            .column("order_id", type: .text, .notNull, .references("orders", "id"))
            .column("push_token", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .column("last_seen_at", type: .bigint, .notNull)
            .primaryKey("device_library_identifier", "order_id")
            .run()
        try await db.create(index: "order_registrations_order").on("order_registrations").column("order_id").run()
        try await db.create(table: "order_storage")
            .column("client_id", type: .text, .primaryKey(autoIncrement: false), .references("clients", "id"))
            .column("bytes", type: .bigint, .notNull)
            .run()
        // Claiming orders' pushes reads only their rows, however many passes' pushes wait.
        try await db.create(index: "push_outbox_kind_due").on("push_outbox").column("kind").column("next_attempt_at")
            .run()
    }
}
