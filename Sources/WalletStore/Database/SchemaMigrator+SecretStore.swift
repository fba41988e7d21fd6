import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Migration 4: the tables of the secret store replicas share on PostgreSQL (``PostgresSecretsBackend``).
    ///
    /// `secret_store_header` holds one row (`id` 1): the store header of `docs/file-store-format.md` (wrapped master
    /// and data keys, generation, MAC), as its JSON bytes. `secret_items` holds one row per item, named by the keyed
    /// hash of its identity, with the sealed item bytes of the same format. SQLite servers keep their secrets in
    /// the encrypted file store of their data directory, so the tables are made on PostgreSQL only.
    static func createSecretStoreTables(_ db: any SQLDatabase) async throws {
        guard db.dialect.name == "postgresql" else { return }
        try await db.create(table: "secret_store_header")
            .column("id", type: .int, .primaryKey(autoIncrement: false))
            .column("header", type: .blob, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .check(SQLRaw("id = 1"), named: nil as String?)
            .run()
        try await db.create(table: "secret_items")
            .column("name", type: .text, .primaryKey(autoIncrement: false))
            .column("item", type: .blob, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .run()
    }
}
