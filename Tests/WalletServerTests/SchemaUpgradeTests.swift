import CofferTestSupport
import Foundation
import SQLKit
import Testing

@testable import WalletServer

@Suite("A database made by an older server is upgraded in place, keeping its data")
struct SchemaUpgradeTests {
    @Test(
        "a version-1 database gains the pass types' learn-more column; its pass types read back unchanged",
        arguments: Engine.available)
    func fromVersion1(_ engine: Engine) async throws {
        let directory = try TemporaryDirectory()
        let database = try WalletDatabase.open(url: try await engine.makeDatabaseURL(in: directory))
        do {
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
            var passType = try #require(try await repository.passType(id: passTypeID))
            #expect(passType.passTypeIdentifier == "pass.com.example.old")
            #expect(passType.organizationName == "Old Co")
            #expect(passType.bindingLearnMoreURL == nil)

            passType.bindingLearnMoreURL = "https://old.example.com/binding"
            try await repository.updatePassType(passType)
            #expect(try await repository.passType(id: passTypeID) == passType)
        } catch {
            try await database.shutdown()
            throw error
        }
        try await database.shutdown()
    }
}
