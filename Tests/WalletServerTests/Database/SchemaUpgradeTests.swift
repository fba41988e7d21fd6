import CofferTestSupport
import Foundation
import SQLKit
import Testing

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("A database made by an older server is upgraded in place, keeping its data")
struct SchemaUpgradeTests {
    @Test(
        "a version-1 database gains the pass types' learn-more column; its pass types read back unchanged",
        arguments: Engine.available)
    func fromVersion1(_ engine: Engine) async throws {
        let directory = try TemporaryDirectory()
        let database = try WalletDatabase.open(url: try await engine.makeDatabaseURL(in: directory))
        try await database.whileOpen { database in
            let versionOne = try #require(SchemaMigrator.migrations.first { $0.version == 1 })
            let passTypeID = UUID()
            try await database.transaction { db in
                try await db.create(table: "coffer_schema_versions")
                    .column("version", type: .bigint, .primaryKey(autoIncrement: false))
                    .column("name", type: .text, .notNull)
                    .column("applied_at", type: .bigint, .notNull)
                    .run()
                try await versionOne.apply(db)
                try await db.insert(into: "coffer_schema_versions").columns("version", "name", "applied_at")
                    .values(SQLBind(1), SQLBind(versionOne.name), SQLBind(Int64(0))).run()
                try await db.insert(into: "pass_types")
                    .columns(
                        "id", "pass_type_identifier", "team_identifier", "organization_name", "signing_key_path",
                        "created_at"
                    )
                    .values(
                        SQLBind(passTypeID.uuidString), SQLBind("pass.com.example.old"), SQLBind("TEAM000001"),
                        SQLBind("Old Co"), SQLBind("wallet/pass-types/old"), SQLBind(Int64(1_700_000_000_000))
                    )
                    .run()
            }

            let migrator = SchemaMigrator(database: database)
            try await migrator.migrate()
            #expect(try await migrator.appliedVersions() == Array(1...SchemaMigrator.latestVersion))
            let repository = SQLWalletRepository(database: database)
            let stored = try #require(try await repository.passType(id: passTypeID))
            var passType = stored
            #expect(passType.passTypeIdentifier == "pass.com.example.old")
            #expect(passType.organizationName == "Old Co")
            #expect(passType.bindingLearnMoreURL == nil)

            passType.bindingLearnMoreURL = "https://old.example.com/binding"
            #expect(try await repository.updatePassType(passType, replacing: stored))
            #expect(try await repository.passType(id: passTypeID) == passType)
        }
    }

    @Test(
        "a migration that fails says what failed (SQLSTATE and the server's message), never the password",
        arguments: Engine.available)
    func failureSaysWhatFailed(_ engine: Engine) async throws {
        let directory = try TemporaryDirectory()
        let url = try await engine.makeDatabaseURL(in: directory)
        let database = try WalletDatabase.open(url: url)
        try await database.whileOpen { database in
            // A table in the way of the first migration.
            try await database.sql.raw("CREATE TABLE clients (other TEXT)").run()
            let error = await #expect(throws: WalletServerError.self) {
                try await SchemaMigrator(database: database).migrate()
            }
            let message = try #require(error).description
            #expect(message.contains("migrating the schema failed"), "\(message)")
            #expect(message.contains("clients") && message.contains("already exists"), "\(message)")
            if engine == .postgres {
                #expect(message.contains("SQLSTATE 42P07"), "\(message)")
                let password = try #require(URLComponents(string: url)?.password)
                #expect(!message.contains(password))
            }
            #expect(!message.contains("PSQLError") && !message.contains("SQLiteError"))
        }
    }

    /// Brings a fresh database to `version` the way a server of that version did.
    static func migrate(_ database: WalletDatabase, to version: Int) async throws {
        try await database.transaction { db in
            try await db.create(table: "coffer_schema_versions")
                .column("version", type: .bigint, .primaryKey(autoIncrement: false))
                .column("name", type: .text, .notNull)
                .column("applied_at", type: .bigint, .notNull)
                .run()
            for migration in SchemaMigrator.migrations.filter({ $0.version <= version }) {
                try await migration.apply(db)
                try await db.insert(into: "coffer_schema_versions").columns("version", "name", "applied_at")
                    .values(SQLBind(migration.version), SQLBind(migration.name), SQLBind(Int64(0))).run()
            }
        }
    }

    /// Makes a database as a server of `version` made it, lets `seed` write what that server wrote, then upgrades
    /// it as a server does at its start (a new connection, before anything else reads) and hands it to `check`.
    static func upgrade<Seeded>(
        _ engine: Engine, from version: Int, seed: (WalletDatabase) async throws -> Seeded,
        check: (WalletDatabase, Seeded) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        let url = try await engine.makeDatabaseURL(in: directory)
        let seeded = try await WalletDatabase.open(url: url).whileOpen { database in
            try await migrate(database, to: version)
            return try await seed(database)
        }
        try await WalletDatabase.open(url: url).whileOpen { database in
            try await SchemaMigrator(database: database).migrate()
            try await check(database, seeded)
        }
    }

    @Test(
        "a version-17 database's Google objects become one per pass: of two sharing an identifier, one keeps it",
        arguments: Engine.available)
    func fromVersion17(_ engine: Engine) async throws {
        let second = UUID()
        try await Self.upgrade(engine, from: 17) { database in
            let repository = SQLWalletRepository(database: database)
            let pass = try await Self.makeVersion2Pass(in: repository, database: database)
            let firstTag = try #require(try await repository.tag(id: pass.tagID))
            let tag = ClientTag(clientID: firstTag.clientID, userID: firstTag.userID, referenceID: "T2")
            try await repository.createTag(tag)
            try await database.sql.insert(into: "apple_passes")
                .columns("id", "tag_id", "pass_type_id", "serial_number", "pass_content", "updated_at")
                .values(
                    SQLBind(second.uuidString), SQLBind(tag.id.uuidString), SQLBind(pass.passTypeID.uuidString),
                    SQLBind("S/1"), SQLBind(Data()), SQLBind(Int64(0))
                )
                .run()
            for passID in [pass.id, second] {
                try await database.sql.insert(into: "google_objects")
                    .columns("pass_id", "object_id", "class_id", "written_update_tag", "written_at", "messages")
                    .values(
                        SQLBind(passID.uuidString), SQLBind("1.pass.com.example.S_1"), SQLBind("1.c"),
                        SQLBind(Int64(3)), SQLBind(Int64(0)), SQLBind("[]")
                    )
                    .run()
            }
            return pass.id
        } check: { database, first in
            let repository = SQLWalletRepository(database: database)
            let keeperID = try #require(UUID(uuidString: min(first.uuidString, second.uuidString)))
            let other = try #require(UUID(uuidString: max(first.uuidString, second.uuidString)))
            let kept = try #require(try await repository.googleObject(passID: keeperID))
            #expect(kept.objectID == "1.pass.com.example.S_1" && kept.writtenUpdateTag == 3 && kept.generation == 0)
            #expect(try await repository.googleObject(passID: other) == nil)
            #expect(try await !repository.reserveGoogleObject(passID: other, objectID: kept.objectID))
            #expect(try await repository.reserveGoogleObject(passID: other, objectID: "1.pass.com.example.S_1-00"))
        }
    }

    @Test(
        "a version-18 database's waiting Google writes join their client's lane and are claimed after the upgrade",
        arguments: Engine.available)
    func fromVersion18(_ engine: Engine) async throws {
        try await Self.upgrade(engine, from: 18) { database in
            let pass = try await Self.makeVersion2Pass(
                in: SQLWalletRepository(database: database), database: database)
            try await database.sql.insert(into: "push_outbox")
                .columns(
                    "id", "pass_id", "pass_type_id", "device_library_identifier", "attempts", "next_attempt_at",
                    "created_at", "kind"
                )
                .values(
                    SQLBind(UUID().uuidString), SQLBind(pass.id.uuidString), SQLBind(pass.passTypeID.uuidString),
                    SQLBind(""), SQLBind(Int64(0)), SQLBind(Int64(0)), SQLBind(Int64(0)), SQLBind("google")
                )
                .run()
            return pass.id
        } check: { database, passID in
            let claimed = try await SQLWalletRepository(database: database).claimDueGoogleWrites(
                now: Date(), limit: 8, perClient: 8, perPassType: 8, leaseFor: 60)
            #expect(claimed.map(\.passID) == [passID])
        }
    }

    /// A pass written as a version-2 server wrote it: only the columns that schema has.
    static func makeVersion2Pass(in repository: SQLWalletRepository, database: WalletDatabase) async throws
        -> StoredPass
    {
        let acme = try await repository.createClient(name: "Acme")
        let user = try await repository.createUser(clientID: acme.id, externalReference: nil)
        let tag = ClientTag(clientID: acme.id, userID: user.id, referenceID: "T1")
        try await repository.createTag(tag)
        let passType = PassType(
            passTypeIdentifier: "pass.com.example", teamIdentifier: "T", organizationName: "Acme", signingKeyPath: "k")
        try await database.sql.insert(into: "pass_types")
            .columns(
                "id", "pass_type_identifier", "team_identifier", "organization_name", "signing_key_path", "created_at"
            )
            .values(
                SQLBind(passType.id.uuidString), SQLBind(passType.passTypeIdentifier), SQLBind(passType.teamIdentifier),
                SQLBind(passType.organizationName), SQLBind(passType.signingKeyPath), SQLBind(Int64(0))
            )
            .run()
        let pass = StoredPass(tagID: tag.id, passTypeID: passType.id, serialNumber: "S1", passContent: Data())
        try await database.sql.insert(into: "apple_passes")
            .columns("id", "tag_id", "pass_type_id", "serial_number", "pass_content", "updated_at")
            .values(
                SQLBind(pass.id.uuidString), SQLBind(tag.id.uuidString), SQLBind(passType.id.uuidString),
                SQLBind(pass.serialNumber), SQLBind(pass.passContent), SQLBind(SQLWalletRepository.ms(pass.updatedAt))
            )
            .run()
        return pass
    }

    /// Open sessions keep working under hashed identifiers, used and expired ones are dropped, the passes' recorded
    /// issuer data name the session by its hash, and no plain identifier is left in the file.
    @Test(
        "a version-2 database's sessions and issuer data move to hashed identifiers; spent ones are dropped",
        arguments: Engine.available)
    func fromVersion2(_ engine: Engine) async throws {
        let directory = try TemporaryDirectory()
        let database = try WalletDatabase.open(url: try await engine.makeDatabaseURL(in: directory))
        let identifiers = (0..<3).map { _ in
            (0..<24).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }
                .joined()
        }
        let (open, used, expired) = (identifiers[0], identifiers[1], identifiers[2])
        try await database.whileOpen { database in
            try await Self.migrate(database, to: 2)
            let repository = SQLWalletRepository(database: database)
            let pass = try await Self.makeVersion2Pass(in: repository, database: database)
            var recorded = pass
            recorded.accountBindingData = Data(
                #"{"callbackURL":"https://w.example/cb","sessionIdentifier":"\#(open)","teamIdentifier":"T"}"#.utf8)
            try await repository.updatePass(recorded)
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            for (id, expiresAt, usedAt) in [
                (open, now + 300_000, Int64?.none), (used, now + 300_000, now - 1000), (expired, now - 1000, nil),
            ] {
                try await database.sql.insert(into: "provisioning_sessions")
                    .columns("id", "pass_id", "created_at", "expires_at", "used_at")
                    .values(
                        SQLBind(id), SQLBind(pass.id.uuidString), SQLBind(now - 5000), SQLBind(expiresAt),
                        SQLBind(usedAt)
                    )
                    .run()
            }

            let migrator = SchemaMigrator(database: database)
            try await migrator.migrate()
            #expect(try await migrator.appliedVersions() == Array(1...SchemaMigrator.latestVersion))
            let rows = try await database.sql.select().column("*").from("provisioning_sessions").all()
            #expect(rows.count == 1)
            #expect(try rows.first?.decode(column: "id_hash", as: Data.self) == SecretToken.hash(open))
            let stored = try #require(try await repository.pass(id: pass.id)?.accountBindingData)
            let object = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: String])
            #expect(object["sessionIdentifier"] == SessionIdentifier.storedForm(of: open))
            #expect(object["callbackURL"] == "https://w.example/cb")
            let nowDate = Date()
            #expect(try await repository.consumeSession(id: used, now: nowDate) == nil)
            #expect(try await repository.consumeSession(id: expired, now: nowDate) == nil)
            #expect(try await repository.consumeSession(id: open, now: nowDate)?.passID == pass.id)
        }
        guard engine == .sqliteFile else { return }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            .filter { $0.hasPrefix("coffer-wallet.sqlite") }
            .reduce(into: Data()) { $0 += try Data(contentsOf: directory.url.appendingPathComponent($1)) }
        #expect(!files.isEmpty)
        for identifier in identifiers {
            #expect(files.range(of: Data(identifier.utf8)) == nil, "an old identifier is left in the file")
        }
    }
}
