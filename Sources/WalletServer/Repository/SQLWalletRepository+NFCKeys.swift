import Foundation
import SQLKit

extension SQLWalletRepository {
    /// Stores `key` and makes it its pass type's current one, in one transaction.
    public func addNFCKey(_ key: PassTypeNFCKey) async throws {
        try await run {
            try await database.transaction { db in
                try await db.insert(into: "pass_type_nfc_keys")
                    .columns("id", "pass_type_id", "public_key", "key_path", "created_at")
                    .values(
                        SQLBind(key.id.uuidString), SQLBind(key.passTypeID.uuidString), SQLBind(key.publicKey),
                        SQLBind(key.keyPath), SQLBind(Self.ms(key.createdAt))
                    )
                    .run()
                try await db.update("pass_types").set("nfc_public_key", to: key.publicKey)
                    .where("id", .equal, key.passTypeID.uuidString).run()
            }
        }
    }

    /// The pass type's NFC keys, newest (the current one) first.
    public func nfcKeys(passTypeID: UUID) async throws -> [PassTypeNFCKey] {
        try await run {
            try await sql.select().columns("id", "pass_type_id", "public_key", "key_path", "created_at")
                .from("pass_type_nfc_keys").where("pass_type_id", .equal, passTypeID.uuidString)
                .orderBy("created_at", .descending).all()
        }.map { row in
            PassTypeNFCKey(
                id: try Self.uuid(row, "id"), passTypeID: try Self.uuid(row, "pass_type_id"),
                publicKey: try row.decode(column: "public_key", as: String.self),
                keyPath: try row.decode(column: "key_path", as: String.self),
                createdAt: Self.date(try row.decode(column: "created_at", as: Int64.self)))
        }
    }
}
