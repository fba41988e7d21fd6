import Foundation
import Logging
import SQLKit
import WalletServices

/// Versioned schema migrations, run on start for both engines.
///
/// Applied versions are recorded in `coffer_schema_versions`. Each pending migration runs in its own
/// transaction together with its version row, so a crash leaves the schema at a recorded version. Every
/// transaction takes the migration lock before it touches anything, the version table included (PostgreSQL: a
/// transaction-scoped advisory lock; SQLite: `BEGIN IMMEDIATE`'s write lock), so servers starting together on one
/// empty database wait for each other and each migration is applied once. A SQLite file is switched to write-ahead
/// logging.
public struct SchemaMigrator: Sendable {
    /// One schema change.
    struct Migration: Sendable {
        let version: Int
        let name: String
        let apply: @Sendable (any SQLDatabase) async throws -> Void
    }

    let database: WalletDatabase
    let logger: Logger

    /// Creates a migrator for `database`.
    public init(database: WalletDatabase, logger: Logger = Logger(label: "coffer.database")) {
        self.database = database
        self.logger = logger
    }

    /// The newest schema version this server knows.
    package static var latestVersion: Int { migrations.map(\.version).max() ?? 0 }

    /// The versions already applied.
    package func appliedVersions() async throws -> [Int] {
        // The table is made under the lock when missing; the read (and its no-op create, which makes a SQLite reader
        // connection load the schema a migration changed) goes to any connection.
        try await lockedTransaction { _ in }
        try await Self.ensureVersionTable(database.sql)
        return try await database.sql.select().column("version").from("coffer_schema_versions").orderBy("version")
            .all(decodingColumn: "version", as: Int.self)
    }

    /// Applies every pending migration; throws `WalletServerError/schemaTooNew(found:known:)` when the database is
    /// ahead of this server.
    public func migrate() async throws {
        do {
            try await migratePending()
        } catch let error as WalletServerError {
            throw error
        } catch {
            throw WalletServerError.databaseUnavailable(
                "migrating the schema failed: "
                    + DatabaseFailure.describe(error, redacting: database.credentials))
        }
    }

    private func migratePending() async throws {
        let engine = database.engine
        if engine == .sqlite {
            // Write-ahead logging lets `coffer admin` write while `coffer serve` reads (the setting is kept in the file).
            try await database.sql.raw("PRAGMA journal_mode=WAL").run()
            for statement in SQLiteIssuanceWrites.tearDown {
                try await database.sql.raw(SQLQueryString(statement)).run()
            }
        }
        for migration in Self.migrations.sorted(by: { $0.version < $1.version }) {
            let applied = try await lockedTransaction { db -> Bool in
                let current =
                    try await db.select().column(SQLFunction("MAX", args: SQLIdentifier("version")), as: "version")
                    .from("coffer_schema_versions").first(decodingColumn: "version", as: Int?.self) ?? nil
                if let current, current > Self.latestVersion {
                    throw WalletServerError.schemaTooNew(found: current, known: Self.latestVersion)
                }
                guard (current ?? 0) < migration.version else { return false }
                try await migration.apply(db)
                try await db.insert(into: "coffer_schema_versions").columns("version", "name", "applied_at")
                    .values(
                        SQLBind(migration.version), SQLBind(migration.name),
                        SQLBind(Int64(Date().timeIntervalSince1970))
                    )
                    .run()
                return true
            }
            if applied {
                logger.info(
                    "applied schema migration",
                    metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
            }
        }
    }

    /// Runs `body` in a transaction that holds the migration lock and sees the version table (created first when
    /// missing, under the lock: concurrent `CREATE TABLE IF NOT EXISTS` collide in PostgreSQL's catalog).
    private func lockedTransaction<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        let engine = database.engine
        return try await database.transaction { db in
            if engine == .postgres {
                try await db.raw("SELECT pg_advisory_xact_lock(7260111)").run()
            }
            try await Self.ensureVersionTable(db)
            return try await body(db)
        }
    }

    private static func ensureVersionTable(_ db: any SQLDatabase) async throws {
        try await db.create(table: "coffer_schema_versions").ifNotExists()
            .column("version", type: .bigint, .primaryKey(autoIncrement: false))
            .column("name", type: .text, .notNull)
            .column("applied_at", type: .bigint, .notNull)
            .run()
    }

    /// The migrations, oldest first. Never edit a released one: add a new version.
    static let migrations: [Migration] = [
        Migration(version: 1, name: "initial schema") { db in
            try await db.create(table: "clients")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("name", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .run()
            try await db.create(table: "api_users")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("client_id", type: .text, .notNull, .references("clients", "id"))
                .column("name", type: .text, .notNull)
                .column("token_hash", type: .blob, .notNull, .unique)
                .column("created_at", type: .bigint, .notNull)
                .column("revoked_at", type: .bigint)
                .run()
            try await db.create(table: "users")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("client_id", type: .text, .notNull, .references("clients", "id"))
                .column("external_reference", type: .text)
                .column("account_hash", type: .text, .notNull, .unique)
                .column("created_at", type: .bigint, .notNull)
                .run()
            try await db.create(table: "pass_types")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("pass_type_identifier", type: .text, .notNull, .unique)
                .column("team_identifier", type: .text, .notNull)
                .column("organization_name", type: .text, .notNull)
                .column("signing_key_path", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .run()
            try await db.create(table: "tags")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("client_id", type: .text, .notNull, .references("clients", "id"))
                .column("user_id", type: .text, .notNull, .references("users", "id"))
                .column("reference_id", type: .text)
                .column("pronto_tag_id", type: .text)
                .column("subscription_id", type: .text)
                .column("created_at", type: .bigint, .notNull)
                .unique("client_id", "reference_id")
                .unique("client_id", "pronto_tag_id")
                .unique("client_id", "subscription_id")
                .run()
            try await db.create(table: "apple_passes")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("tag_id", type: .text, .notNull, .unique, .references("tags", "id"))
                .column("pass_type_id", type: .text, .notNull, .references("pass_types", "id"))
                .column("serial_number", type: .text, .notNull)
                .column("pass_content", type: .blob, .notNull)
                .column("account_binding_data", type: .blob)
                .column("issuer_binding_data", type: .text)
                .column("key_hash", type: .text)
                .column("updated_at", type: .bigint, .notNull)
                .unique("pass_type_id", "serial_number")
                .run()
            try await db.create(table: "provisioning_sessions")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("pass_id", type: .text, .notNull, .references("apple_passes", "id"))
                .column("created_at", type: .bigint, .notNull)
                .column("expires_at", type: .bigint, .notNull)
                .column("used_at", type: .bigint)
                .run()
        },
        Migration(version: 2, name: "pass type binding learn-more URL") { db in
            try await db.alter(table: "pass_types").column("binding_learn_more_url", type: .text).run()
        },
        Migration(version: 3, name: "provisioning session identifiers stored hashed", apply: hashSessionIdentifiers),
        Migration(version: 4, name: "secret store in PostgreSQL", apply: createSecretStoreTables),
        Migration(version: 5, name: "pass web service, pushes and management", apply: createPassWebServiceTables),
        Migration(
            version: 6, name: "update tag counter, push tokens per registration, pass types per client",
            apply: hardenForReplicasAndClients),
        Migration(version: 7, name: "NFC keys per pass type", apply: createNFCKeys),
        Migration(version: 8, name: "signed pass archives and share links", apply: createDistributionTables),
        Migration(version: 9, name: "pass traces", apply: createPassEvents),
        Migration(version: 10, name: "webhook endpoints and deliveries in the outbox", apply: createWebhooks),
        Migration(version: 11, name: "kept pass archives sealed", apply: dropUnsealedArchives),
        Migration(version: 12, name: "when each registered device was last seen", apply: addRegistrationsSeen),
        Migration(version: 13, name: "rate limits shared by replicas", apply: createRateBuckets),
        Migration(
            version: 14, name: "renewed identities staged, certificate notices", apply: stageRenewedIdentities),
        Migration(version: 15, name: "a Google Wallet issuer per pass type") { db in
            try await db.alter(table: "pass_types").column("google_issuer_id", type: .text).run()
        },
        Migration(version: 16, name: "Google Wallet objects", apply: createGoogleWalletTables),
        Migration(version: 17, name: "Apple Wallet orders", apply: createOrderTables),
        Migration(version: 18, name: "one Google Wallet object per pass", apply: separateGoogleObjects),
        Migration(version: 19, name: "Google Wallet writes claimed by lane", apply: laneGoogleWrites),
        Migration(version: 20, name: "bulk changes of passes", apply: createPassChangeJobs),
        Migration(version: 21, name: "pass changes notified to every replica", apply: notifyPassChanges),
    ]
}
