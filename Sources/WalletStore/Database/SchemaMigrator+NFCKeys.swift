import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Migration 7: each pass type's NFC keys. `pass_types.nfc_public_key` is the current public key (what the
    /// renderer writes into passes, read with the pass type); `pass_type_nfc_keys` keeps every key made or imported,
    /// with where its private key is in the secret store.
    static func createNFCKeys(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "pass_types").column("nfc_public_key", type: .text).run()
        try await db.create(table: "pass_type_nfc_keys")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("pass_type_id", type: .text, .notNull, .references("pass_types", "id"))
            .column("public_key", type: .text, .notNull)
            .column("key_path", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "pass_type_nfc_keys_pass_type").on("pass_type_nfc_keys").column("pass_type_id")
            .run()
    }
}
