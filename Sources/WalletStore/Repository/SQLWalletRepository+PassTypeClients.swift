import Foundation
import SQLKit
import WalletServices

extension SQLWalletRepository {
    /// Lets the client issue passes under the pass type; granting it twice changes nothing.
    package func grantPassType(passTypeID: UUID, clientID: UUID, now: Date) async throws {
        try await run {
            try await sql.insert([PassTypeClientRow(passTypeID: passTypeID, clientID: clientID, createdAt: now)])
                .ignoringConflicts(with: PassTypeClientRow.primaryKey.map(\.stringValue))
                .run()
        }
    }

    /// Stops the client from issuing under the pass type; returns whether it could.
    package func revokePassType(passTypeID: UUID, clientID: UUID) async throws -> Bool {
        try await run {
            try await database.transaction { db in
                let revoked = try await db.delete(from: "pass_type_clients")
                    .where("pass_type_id", .equal, passTypeID.uuidString)
                    .where("client_id", .equal, clientID.uuidString).returning("client_id").all()
                // The client's share links stop handing out passes of a type it may no longer use.
                try await db.delete(from: ShareLinkRow.table)
                    .where(ShareLinkRow.column(.clientID), .equal, SQLBind(clientID.uuidString))
                    .where(
                        ShareLinkRow.column(.passID), .in,
                        SQLGroupExpression(
                            db.select().column("id").from("apple_passes")
                                .where("pass_type_id", .equal, passTypeID.uuidString).query)
                    ).run()
                return revoked.count == 1
            }
        }
    }

    /// Whether the client may issue passes under the pass type.
    package func isPassTypeGranted(passTypeID: UUID, clientID: UUID) async throws -> Bool {
        try await run {
            try await sql.select().column("client_id").from("pass_type_clients")
                .where("pass_type_id", .equal, passTypeID.uuidString).where("client_id", .equal, clientID.uuidString)
                .first()
        } != nil
    }

    /// The pass types shared with the client, oldest first, in one query.
    package func passTypes(sharedWith clientID: UUID) async throws -> [PassType] {
        try await run {
            try await sql.select().columns(of: PassTypeRow.self).from(PassTypeRow.table)
                .join(
                    PassTypeClientRow.table, on: PassTypeClientRow.column(.passTypeID), .equal,
                    PassTypeRow.column(.id)
                )
                .where(PassTypeClientRow.column(.clientID), .equal, SQLBind(clientID.uuidString))
                .orderBy(PassTypeRow.column(.createdAt)).all(decoding: PassTypeRow.self)
        }.map { try $0.model() }
    }
}
