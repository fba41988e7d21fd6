import SQLKit
import SQLiteKit
import WalletServices

/// Issuances on SQLite as one statement: an `INSERT` into a temporary view whose `INSTEAD OF` trigger, for each row
/// in order, stores the pass's binding data, ends its open sessions and opens the new one.
///
/// One statement is one transaction, atomic and synced as it commits, where the same writes as separate statements
/// cost a `BEGIN`, three statements and a `COMMIT`, each a round trip to SQLite's thread; under load those trips,
/// not SQLite's work, set how often the provisioning group commit can commit (Benchmarks/RESULTS.md). PostgreSQL
/// keeps the separate statements, which lock the passes' rows in one order.
enum SQLiteIssuanceWrites {
    /// The view a batch of issuances is inserted into.
    static let view = "coffer_issuance_writes"

    /// Creates the view and its trigger on the connection that first records an issuance. Temporary objects live
    /// with their connection, and are made only once the schema is migrated: SQLite checks every trigger's tables
    /// when a migration renames one (``tearDown`` runs before migrating).
    static let setUp = [
        """
        CREATE TEMP VIEW IF NOT EXISTS \(view) \
        (pass_id, account_binding_data, updated_at, session_id_hash, created_at, expires_at) \
        AS SELECT NULL, NULL, NULL, NULL, NULL, NULL WHERE 0
        """,
        """
        CREATE TEMP TRIGGER IF NOT EXISTS \(view)_insert INSTEAD OF INSERT ON \(view) BEGIN \
        UPDATE apple_passes SET account_binding_data = NEW.account_binding_data, updated_at = NEW.updated_at \
        WHERE id = NEW.pass_id; \
        DELETE FROM provisioning_sessions WHERE pass_id = NEW.pass_id AND used_at IS NULL; \
        INSERT INTO provisioning_sessions (id_hash, pass_id, created_at, expires_at, used_at) \
        VALUES (NEW.session_id_hash, NEW.pass_id, NEW.created_at, NEW.expires_at, NULL); \
        END
        """,
    ]

    /// Drops the view and its trigger from the connection `db` runs on, if it has them.
    static let tearDown = ["DROP TRIGGER IF EXISTS temp.\(view)_insert", "DROP VIEW IF EXISTS temp.\(view)"]

    /// Records `issuances` in one statement on `db`, in order, making the view first where the connection has none.
    static func insert(_ issuances: [Issuance], on db: any SQLDatabase) async throws {
        guard !issuances.isEmpty else { return }
        var insert = db.insert(into: view).columns(
            "pass_id", "account_binding_data", "updated_at", "session_id_hash", "created_at", "expires_at")
        for issuance in issuances {
            let session = SessionRow(issuance.session)
            insert = insert.values(
                SQLBind(session.passID), SQLBind(issuance.accountBindingData),
                SQLBind(SQLWalletRepository.ms(issuance.issuedAt)), SQLBind(session.idHash),
                SQLBind(session.createdAt), SQLBind(session.expiresAt))
        }
        do {
            try await insert.run()
        } catch let error as SQLiteError where error.message == "no such table: \(view)" {
            for statement in setUp { try await db.raw(SQLQueryString(statement)).run() }
            try await insert.run()
        }
    }
}
