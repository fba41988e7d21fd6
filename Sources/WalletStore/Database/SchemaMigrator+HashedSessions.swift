import Foundation
import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Version 3: provisioning sessions are kept under the SHA-256 of their identifier (`id_hash`), no longer the
    /// identifier itself (`id`), and passes' copies of their issuer data name the session by that hash too.
    ///
    /// The table is rebuilt (SQLite cannot drop a primary key column): the sessions still open are copied with their
    /// identifiers hashed; used and expired ones, which no callback can use any more, are dropped. On SQLite, freed
    /// space is overwritten with zeros (`secure_delete`) so that the old identifiers do not linger in the file. A
    /// server of an older version still running against the database fails to open sessions (503) instead of writing
    /// identifiers in the clear.
    static func hashSessionIdentifiers(_ db: any SQLDatabase) async throws {
        if db.dialect.name == "sqlite" {
            try await db.raw("PRAGMA secure_delete = ON").run()
        }
        try await db.create(table: "provisioning_sessions_hashed")
            .column("id_hash", type: .blob, .primaryKey(autoIncrement: false))
            .column("pass_id", type: .text, .notNull, .references("apple_passes", "id"))
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("used_at", type: .bigint)
            .run()
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        let open = try await db.select().columns("id", "pass_id", "created_at", "expires_at")
            .from("provisioning_sessions").where("used_at", .is, SQLLiteral.null).where("expires_at", .greaterThan, now)
            .all()
        for row in open {
            try await db.insert(into: "provisioning_sessions_hashed")
                .columns("id_hash", "pass_id", "created_at", "expires_at")
                .values(
                    SQLBind(SessionIdentifier.hash(try row.decode(column: "id", as: String.self))),
                    SQLBind(try row.decode(column: "pass_id", as: String.self)),
                    SQLBind(try row.decode(column: "created_at", as: Int64.self)),
                    SQLBind(try row.decode(column: "expires_at", as: Int64.self))
                )
                .run()
        }
        try await db.drop(table: "provisioning_sessions").run()
        try await db.alter(table: "provisioning_sessions_hashed").rename(to: "provisioning_sessions").run()
        // Ending a pass's open sessions looks them up by pass; the purge by expiry.
        try await db.create(index: "provisioning_sessions_pass_id").on("provisioning_sessions").column("pass_id").run()
        try await db.create(index: "provisioning_sessions_expires_at").on("provisioning_sessions").column("expires_at")
            .run()
        try await hashRecordedSessionIdentifiers(db)
    }

    /// Replaces the `sessionIdentifier` in every pass's recorded issuer data (`account_binding_data`) with its
    /// `SessionIdentifier/storedForm(of:)`, a page of passes at a time.
    private static func hashRecordedSessionIdentifiers(_ db: any SQLDatabase) async throws {
        var after = ""
        while true {
            let rows = try await db.select().columns("id", "account_binding_data").from("apple_passes")
                .where("account_binding_data", .isNot, SQLLiteral.null).where("id", .greaterThan, after)
                .orderBy("id").limit(500).all()
            for row in rows {
                let id = try row.decode(column: "id", as: String.self)
                let data = try row.decode(column: "account_binding_data", as: Data.self)
                if let rewritten = withHashedSessionIdentifier(data) {
                    try await db.update("apple_passes").set("account_binding_data", to: rewritten)
                        .where("id", .equal, id).run()
                }
            }
            guard rows.count == 500, let last = rows.last else { return }
            after = try last.decode(column: "id", as: String.self)
        }
    }

    /// `issuerData` (JSON) with its `sessionIdentifier` in stored form; `nil` when there is nothing to change.
    static func withHashedSessionIdentifier(_ issuerData: Data) -> Data? {
        guard var object = try? JSONSerialization.jsonObject(with: issuerData) as? [String: Any],
            let identifier = object["sessionIdentifier"] as? String, !SessionIdentifier.isStoredForm(identifier)
        else { return nil }
        object["sessionIdentifier"] = SessionIdentifier.storedForm(of: identifier)
        return try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}
