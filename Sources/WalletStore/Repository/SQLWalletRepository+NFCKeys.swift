import Foundation
import SQLKit
import WalletServices

extension SQLWalletRepository {
    /// Stores `key` and makes it its pass type's current one, in one transaction.
    package func addNFCKey(_ key: PassTypeNFCKey) async throws {
        try await run {
            try await database.transaction { db in
                try await db.insert([PassTypeNFCKeyRow(key)]).run()
                try await db.update("pass_types").set("nfc_public_key", to: key.publicKey)
                    .where("id", .equal, key.passTypeID.uuidString).run()
            }
        }
    }

    /// The pass type's NFC keys, newest (the current one) first.
    package func nfcKeys(passTypeID: UUID) async throws -> [PassTypeNFCKey] {
        try await run {
            try await sql.select().columns(of: PassTypeNFCKeyRow.self).from(PassTypeNFCKeyRow.table)
                .where(PassTypeNFCKeyRow.column(.passTypeID), .equal, SQLBind(passTypeID.uuidString))
                .orderBy(PassTypeNFCKeyRow.column(.createdAt), SQLDirection.descending).all(
                    decoding: PassTypeNFCKeyRow.self)
        }.map { try $0.model() }
    }
}
