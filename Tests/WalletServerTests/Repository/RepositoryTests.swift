import CofferTestSupport
import Foundation
import Secrets
import SQLKit
import Testing
import WalletServer
import WalletServices
import WalletStore

@Suite("The SQL repository stores the server's data on SQLite and PostgreSQL")
struct RepositoryTests {
    @Test("migrations record their version and are idempotent", arguments: Engine.available)
    func migrations(_ engine: Engine) async throws {
        try await engine.withRepository { _, database in
            let migrator = SchemaMigrator(database: database)
            #expect(try await migrator.appliedVersions() == Array(1...SchemaMigrator.latestVersion))
            try await migrator.migrate()
            #expect(try await migrator.appliedVersions() == Array(1...SchemaMigrator.latestVersion))
        }
    }

    @Test(
        "API tokens are shown once, stored only as hashes, and stop working when revoked", arguments: Engine.available)
    func apiTokens(_ engine: Engine) async throws {
        try await engine.withRepository { repository, database in
            let client = try await repository.createClient(name: "Acme")
            let (apiUser, token) = try await repository.createAPIUser(clientID: client.id, name: "iOS app")
            #expect(token.count == 43)
            #expect(try await repository.apiUser(token: token)?.id == apiUser.id)
            #expect(try await repository.apiUser(token: token + "x") == nil)
            let stored = try await database.sql.select().column("*").from("api_users").all()
            for row in stored {
                for column in row.allColumns {
                    let text = (try? row.decode(column: column, as: String.self)) ?? ""
                    #expect(!text.contains(token), "the token itself is stored in \(column)")
                }
            }
            #expect(try await repository.revokeAPIUser(id: apiUser.id))
            #expect(try await repository.revokeAPIUser(id: apiUser.id) == false)
            #expect(try await repository.apiUser(token: token) == nil)
            #expect(try await repository.apiUsers(clientID: client.id).first?.revokedAt != nil)
        }
    }

    @Test("tags are found by each id attribute, only within their client", arguments: Engine.available)
    func tagLookup(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let acme = try await repository.createClient(name: "Acme")
            let other = try await repository.createClient(name: "Other")
            let user = try await repository.createUser(clientID: acme.id, externalReference: "jane@example.com")
            let tag = ClientTag(
                clientID: acme.id, userID: user.id, referenceID: "PASS-001", prontoTagID: "77", subscriptionID: "sub_1")
            try await repository.createTag(tag)
            for (attribute, value) in [
                (TagIDAttribute.referenceID, "PASS-001"), (.prontoTagID, "77"), (.subscriptionID, "sub_1"),
            ] {
                #expect(try await repository.tag(clientID: acme.id, attribute: attribute, value: value)?.id == tag.id)
                #expect(try await repository.tag(clientID: other.id, attribute: attribute, value: value) == nil)
            }
            #expect(try await repository.tag(clientID: acme.id, attribute: .prontoTagID, value: "PASS-001") == nil)
        }
    }

    @Test("duplicates are conflicts and dangling references are refused", arguments: Engine.available)
    func constraints(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let acme = try await repository.createClient(name: "Acme")
            let user = try await repository.createUser(clientID: acme.id, externalReference: nil)
            try await repository.createTag(ClientTag(clientID: acme.id, userID: user.id, referenceID: "DUP"))
            await #expect(throws: WalletServerError.conflict("a record with the same key")) {
                try await repository.createTag(ClientTag(clientID: acme.id, userID: user.id, referenceID: "DUP"))
            }
            let other = try await repository.createClient(name: "Other")
            await #expect(throws: WalletServerError.self) {
                try await repository.createTag(ClientTag(clientID: other.id, userID: user.id, referenceID: "X"))
            }
            await #expect(throws: WalletServerError.self) {
                _ = try await repository.createAPIUser(clientID: UUID(), name: "ghost")
            }
        }
    }

    @Test("passes round-trip, update in place, and are one per tag", arguments: Engine.available)
    func passes(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let acme = try await repository.createClient(name: "Acme")
            let user = try await repository.createUser(clientID: acme.id, externalReference: nil)
            let tag = ClientTag(clientID: acme.id, userID: user.id, referenceID: "T1")
            try await repository.createTag(tag)
            let passType = PassType(
                passTypeIdentifier: "pass.com.example", teamIdentifier: "ABCDE12345", organizationName: "Acme",
                signingKeyPath: "wallet/pass-types/example")
            try await repository.createPassType(passType)
            // Times are stored with millisecond precision; use exact ones so the comparison is exact.
            var pass = StoredPass(
                tagID: tag.id, passTypeID: passType.id, serialNumber: "S1", passContent: Data("{}".utf8),
                updatedAt: Date(timeIntervalSince1970: 1_700_000_000))
            try await repository.createPass(pass)
            #expect(try await repository.pass(tagID: tag.id) == pass)
            pass.accountBindingData = Data(#"{"a":1}"#.utf8)
            pass.issuerBindingData = "0a0b"
            pass.keyHash = "ff"
            pass.updatedAt = Date(timeIntervalSince1970: 1_800_000_000.5)
            try await repository.updatePass(pass)
            #expect(try await repository.pass(id: pass.id) == pass)
            await #expect(throws: WalletServerError.self) {
                try await repository.createPass(
                    StoredPass(tagID: tag.id, passTypeID: passType.id, serialNumber: "S2", passContent: Data()))
            }
            #expect(try await repository.passTypes().map(\.id) == [passType.id])
        }
    }

    @Test(
        "a provisioning target joins pass, tag, user and pass type, by tag attribute in a client or by pass",
        arguments: Engine.available)
    func provisioningTargets(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let pass = try await repository.makePass().pass
            let tag = try #require(try await repository.tag(id: pass.tagID))
            let byTag = try #require(
                try await repository.provisioningTarget(clientID: tag.clientID, attribute: .referenceID, value: "T1"))
            #expect(byTag.pass.id == pass.id)
            #expect(byTag.tag.id == tag.id)
            #expect(byTag.user.id == tag.userID)
            #expect(byTag.passType.id == pass.passTypeID)
            #expect(byTag.passType.passTypeIdentifier == "pass.com.example")
            #expect(try await repository.provisioningTarget(passID: pass.id) == byTag)

            let other = try await repository.createClient(name: "Other")
            #expect(
                try await repository.provisioningTarget(clientID: other.id, attribute: .referenceID, value: "T1") == nil
            )
            #expect(
                try await repository.provisioningTarget(clientID: tag.clientID, attribute: .prontoTagID, value: "T1")
                    == nil)
            try await repository.createTag(ClientTag(clientID: tag.clientID, userID: tag.userID, referenceID: "BARE"))
            #expect(
                try await repository.provisioningTarget(clientID: tag.clientID, attribute: .referenceID, value: "BARE")
                    == nil)
            #expect(try await repository.provisioningTarget(passID: UUID()) == nil)
        }
    }

    @Test("issuance stores the pass's binding data and its session together", arguments: Engine.available)
    func issuance(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            var pass = try await repository.makePass().pass
            pass.accountBindingData = Data("{}".utf8)
            let now = Date()
            try await repository.recordIssuance(
                pass,
                session: ProvisioningSession(
                    id: "s1", passID: pass.id, createdAt: now, expiresAt: now.addingTimeInterval(300)))
            #expect(try await repository.pass(id: pass.id)?.accountBindingData == Data("{}".utf8))
            // A session that cannot be stored (its identifier is taken, by a used session, which an issuance keeps)
            // leaves the pass as it was.
            #expect(try await repository.consumeSession(id: "s1", now: now) != nil)
            pass.accountBindingData = Data("[]".utf8)
            await #expect(throws: WalletServerError.self) {
                try await repository.recordIssuance(
                    pass,
                    session: ProvisioningSession(
                        id: "s1", passID: pass.id, createdAt: now, expiresAt: now.addingTimeInterval(300)))
            }
            #expect(try await repository.pass(id: pass.id)?.accountBindingData == Data("{}".utf8))
        }
    }

    @Test(
        "an issuance and a callback that interleave each keep what the other wrote (no lost update)",
        arguments: Engine.available)
    func interleavedIssuanceAndBinding(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let made = try await repository.makePass().pass
            let now = Date()
            // Both steps read the pass before either writes.
            var issued = try #require(try await repository.pass(id: made.id))
            var bound = try #require(try await repository.pass(id: made.id))
            bound.issuerBindingData = "0a0b"
            bound.keyHash = "c0ffee"
            bound.updatedAt = now
            try await repository.recordBinding(bound)
            issued.accountBindingData = Data("{}".utf8)
            issued.updatedAt = now.addingTimeInterval(1)
            try await repository.recordIssuance(
                issued,
                session: ProvisioningSession(
                    id: "s-late", passID: made.id, createdAt: now, expiresAt: now.addingTimeInterval(300)))

            var stored = try #require(try await repository.pass(id: made.id))
            #expect(stored.keyHash == "c0ffee", "the issuance did not write the callback's columns back")
            #expect(stored.issuerBindingData == "0a0b")
            #expect(stored.accountBindingData == Data("{}".utf8))

            // The other order: a callback with a stale read keeps the newer binding data.
            bound.accountBindingData = nil
            bound.keyHash = "beef"
            try await repository.recordBinding(bound)
            stored = try #require(try await repository.pass(id: made.id))
            #expect(stored.accountBindingData == Data("{}".utf8), "the callback did not write the issuance's column")
            #expect(stored.keyHash == "beef")
        }
    }

    @Test("a session is consumed once, and never after it expires", arguments: Engine.available)
    func sessions(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let pass = try await repository.makePass().pass
            let now = Date()
            try await repository.createSession(
                ProvisioningSession(id: "live", passID: pass.id, createdAt: now, expiresAt: now.addingTimeInterval(300))
            )
            try await repository.createSession(
                ProvisioningSession(id: "old", passID: pass.id, createdAt: now, expiresAt: now.addingTimeInterval(-1)))
            #expect(try await repository.consumeSession(id: "live", now: now)?.passID == pass.id)
            #expect(try await repository.consumeSession(id: "live", now: now) == nil)
            #expect(try await repository.consumeSession(id: "old", now: now) == nil)
            #expect(try await repository.consumeSession(id: "unknown", now: now) == nil)
        }
    }

    @Test(
        "a session is stored only as the SHA-256 of its identifier, and found by it", arguments: Engine.available)
    func sessionsHashed(_ engine: Engine) async throws {
        try await engine.withRepository { repository, database in
            let pass = try await repository.makePass().pass
            let now = Date()
            let identifier = "b1e2c3d4a5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718"
            try await repository.createSession(
                ProvisioningSession(
                    id: identifier, passID: pass.id, createdAt: now, expiresAt: now.addingTimeInterval(300)))
            let rows = try await database.sql.select().column("*").from("provisioning_sessions").all()
            #expect(rows.count == 1)
            for row in rows {
                #expect(try row.decode(column: "id_hash", as: Data.self) == SecretToken.hash(identifier))
                for column in row.allColumns {
                    let bytes = (try? row.decode(column: column, as: Data.self)) ?? Data()
                    let text = (try? row.decode(column: column, as: String.self)) ?? ""
                    #expect(!text.contains(identifier), "the identifier itself is stored in \(column)")
                    #expect(bytes.range(of: Data(identifier.utf8)) == nil, "the identifier is stored in \(column)")
                }
            }
            let consumed = try #require(try await repository.consumeSession(id: identifier, now: now))
            #expect(consumed.id == identifier)
            #expect(consumed.passID == pass.id)
            #expect(consumed.usedAt != nil)
        }
    }

    @Test(
        "a new issuance ends only that pass's open sessions: the older one can no longer be consumed",
        arguments: Engine.available)
    func issuanceEndsOpenSessions(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let pass = try await repository.makePass().pass
            let tag = try #require(try await repository.tag(id: pass.tagID))
            let otherTag = ClientTag(clientID: tag.clientID, userID: tag.userID, referenceID: "T2")
            try await repository.createTag(otherTag)
            let otherPass = StoredPass(
                tagID: otherTag.id, passTypeID: pass.passTypeID, serialNumber: "S2", passContent: Data())
            try await repository.createPass(otherPass)
            let now = Date()
            func session(_ id: String, _ passID: UUID) -> ProvisioningSession {
                ProvisioningSession(id: id, passID: passID, createdAt: now, expiresAt: now.addingTimeInterval(300))
            }
            try await repository.recordIssuance(pass, session: session("first", pass.id))
            try await repository.recordIssuance(otherPass, session: session("other", otherPass.id))
            try await repository.recordIssuance(pass, session: session("second", pass.id))
            #expect(try await repository.consumeSession(id: "first", now: now) == nil)
            #expect(try await repository.consumeSession(id: "second", now: now)?.passID == pass.id)
            #expect(try await repository.consumeSession(id: "other", now: now)?.passID == otherPass.id)
        }
    }

    @Test(
        "expired sessions are deleted in batches of the size asked, used or not; live ones stay usable",
        arguments: Engine.available)
    func expiredSessionsDeleted(_ engine: Engine) async throws {
        try await engine.withRepository { repository, database in
            let pass = try await repository.makePass().pass
            let now = Date()
            for index in 0..<5 {
                try await repository.createSession(
                    ProvisioningSession(
                        id: "expired-\(index)", passID: pass.id, createdAt: now.addingTimeInterval(-600),
                        expiresAt: now.addingTimeInterval(-Double(index)),
                        usedAt: index == 0 ? now.addingTimeInterval(-500) : nil))
            }
            for id in ["live-1", "live-2"] {
                try await repository.createSession(
                    ProvisioningSession(id: id, passID: pass.id, createdAt: now, expiresAt: now.addingTimeInterval(1)))
            }
            var batches: [Int] = []
            for _ in 0..<4 { batches.append(try await repository.deleteExpiredSessions(now: now, limit: 2)) }
            #expect(batches == [2, 2, 1, 0])
            let left = try await database.sql.select().column("*").from("provisioning_sessions").all()
            #expect(left.count == 2)
            #expect(try await repository.consumeSession(id: "live-1", now: now) != nil)
            #expect(try await repository.consumeSession(id: "live-2", now: now) != nil)
        }
    }

    @Test(
        "the purger deletes every expired session, batch after batch, and keeps the live ones",
        arguments: Engine.available)
    func purger(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let pass = try await repository.makePass().pass
            let now = Date()
            try await repository.makeSessions(of: pass, expired: 7, now: now)
            let purger = SessionPurger(
                repository: repository, interval: .seconds(60), batchSize: 3, clock: ManualClock(now))
            #expect(try await purger.purge() == 7)
            #expect(try await purger.purge() == 0)
            #expect(try await repository.consumeSession(id: "live", now: now) != nil)
        }
    }

    @Test("concurrent consumers of one session: exactly one wins", arguments: Engine.available)
    func sessionRace(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let pass = try await repository.makePass().pass
            let now = Date()
            try await repository.createSession(
                ProvisioningSession(id: "race", passID: pass.id, createdAt: now, expiresAt: now.addingTimeInterval(300))
            )
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await repository.consumeSession(id: "race", now: now) != nil }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
        }
    }

    @Test("an unusable database URL is a typed error")
    func badURL() {
        #expect(throws: WalletServerError.self) { try WalletDatabase.open(url: "mysql://nope") }
        #expect(throws: WalletServerError.self) { try WalletDatabase.open(url: "sqlite://relative/path") }
    }

    @Test("in CI, PostgreSQL is configured, so its cases really run")
    func postgresInCI() {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            #expect(Engine.postgresURL != nil, "COFFER_TEST_POSTGRES_URL must be set by .ci/run")
        }
    }
}
