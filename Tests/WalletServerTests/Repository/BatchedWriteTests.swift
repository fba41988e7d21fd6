import CofferTestSupport
import Foundation
import SQLKit
import Testing

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("The repository's batched writes keep each write's meaning on SQLite and PostgreSQL")
struct BatchedWriteTests {
    /// A client with a user, a pass type and `count` tags, each with a pass.
    static func makePasses(_ count: Int, in repository: SQLWalletRepository) async throws -> [StoredPass] {
        let client = try await repository.createClient(name: "Acme")
        let user = try await repository.createUser(clientID: client.id, externalReference: nil)
        let passType = PassType(
            passTypeIdentifier: "pass.com.example", teamIdentifier: "T", organizationName: "Acme", signingKeyPath: "k")
        try await repository.createPassType(passType)
        try await repository.grantPassType(passTypeID: passType.id, clientID: client.id, now: Date())
        let made = (0..<count).map { index in
            let tag = ClientTag(clientID: client.id, userID: user.id, referenceID: "T\(index)")
            return (
                tag: tag,
                pass: StoredPass(tagID: tag.id, passTypeID: passType.id, serialNumber: "S\(index)", passContent: Data())
            )
        }
        try await repository.createTags(made)
        return made.map(\.pass)
    }

    static func issuance(_ pass: StoredPass, session: String, at time: Date = Date()) -> Issuance {
        Issuance(
            passID: pass.id, accountBindingData: Data(session.utf8), issuedAt: time,
            session: ProvisioningSession(
                id: session, passID: pass.id, createdAt: time, expiresAt: time.addingTimeInterval(300)))
    }

    @Test(
        "64 concurrent issuances for different passes are all stored, each with its own open session",
        arguments: Engine.available)
    func concurrentIssuances(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let passes = try await Self.makePasses(64, in: repository)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, pass) in passes.enumerated() {
                    group.addTask { try await repository.recordIssuance(Self.issuance(pass, session: "s\(index)")) }
                }
                try await group.waitForAll()
            }
            for (index, pass) in passes.enumerated() {
                #expect(try await repository.pass(id: pass.id)?.accountBindingData == Data("s\(index)".utf8))
                #expect(try await repository.consumeSession(id: "s\(index)", now: Date())?.passID == pass.id)
            }
        }
    }

    @Test(
        "concurrent issuances for one pass leave one open session, whose binding data the pass records",
        arguments: Engine.available)
    func concurrentIssuancesOfOnePass(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let pass = try #require(try await Self.makePasses(1, in: repository).first)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<32 {
                    group.addTask { try await repository.recordIssuance(Self.issuance(pass, session: "s\(index)")) }
                }
                try await group.waitForAll()
            }
            let recorded = try #require(try await repository.pass(id: pass.id)?.accountBindingData)
            let winner = String(decoding: recorded, as: UTF8.self)
            var open: [String] = []
            for index in 0..<32 where try await repository.consumeSession(id: "s\(index)", now: Date()) != nil {
                open.append("s\(index)")
            }
            #expect(open == [winner])
        }
    }

    @Test(
        "32 concurrent callbacks of one session: exactly one consumes it, however the batches fall",
        arguments: Engine.available)
    func concurrentConsumptions(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let passes = try await Self.makePasses(4, in: repository)
            for (index, pass) in passes.enumerated() {
                try await repository.recordIssuance(Self.issuance(pass, session: "s\(index)"))
            }
            let winners = try await withThrowingTaskGroup(of: String?.self) { group in
                for attempt in 0..<128 {
                    let session = "s\(attempt % 4)"
                    group.addTask {
                        try await repository.consumeSession(id: session, now: Date()) != nil ? session : nil
                    }
                }
                return try await group.reduce(into: [String]()) { if let won = $1 { $0.append(won) } }
            }
            #expect(winners.sorted() == ["s0", "s1", "s2", "s3"])
        }
    }

    @Test(
        "an issuance for a pass that does not exist fails alone; the others committed with it are kept",
        arguments: Engine.available)
    func failingIssuanceAlone(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let passes = try await Self.makePasses(8, in: repository)
            let ghost = StoredPass(tagID: UUID(), passTypeID: UUID(), serialNumber: "ghost", passContent: Data())
            let results = await withTaskGroup(of: (String, Bool).self) { group in
                for (index, pass) in (passes + [ghost]).enumerated() {
                    group.addTask {
                        do {
                            try await repository.recordIssuance(Self.issuance(pass, session: "s\(index)"))
                            return ("s\(index)", true)
                        } catch {
                            return ("s\(index)", false)
                        }
                    }
                }
                return await group.reduce(into: [String: Bool]()) { $0[$1.0] = $1.1 }
            }
            #expect(results["s8"] == false)
            #expect((0..<8).allSatisfy { results["s\($0)"] == true })
            for index in 0..<8 {
                #expect(try await repository.consumeSession(id: "s\(index)", now: Date()) != nil)
            }
        }
    }

    @Test(
        "a batch with a callback's consumption among issuances consumes first, then issues in order",
        arguments: Engine.available)
    func issuancesBesideAConsumption(_ engine: Engine) async throws {
        try await engine.withRepository { repository, database in
            let passes = try await Self.makePasses(2, in: repository)
            try await repository.recordIssuance(Self.issuance(passes[0], session: "old"))
            let outcomes = try await SQLWalletRepository.commit(
                [
                    .issuance(Self.issuance(passes[0], session: "first")),
                    .consumption(sessionID: "old", now: Date()),
                    .issuance(Self.issuance(passes[1], session: "other")),
                    .issuance(Self.issuance(passes[0], session: "second")),
                ], to: database)
            #expect(outcomes.map { $0?.passID } == [nil, passes[0].id, nil, nil])
            #expect(try await repository.pass(id: passes[0].id)?.accountBindingData == Data("second".utf8))
            #expect(try await repository.consumeSession(id: "first", now: Date()) == nil)
            #expect(try await repository.consumeSession(id: "second", now: Date())?.passID == passes[0].id)
            #expect(try await repository.consumeSession(id: "other", now: Date())?.passID == passes[1].id)
        }
    }

    @Test("concurrent bindings of different passes each store only their own columns", arguments: Engine.available)
    func concurrentBindings(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let passes = try await Self.makePasses(16, in: repository)
            for (index, pass) in passes.enumerated() {
                try await repository.recordIssuance(Self.issuance(pass, session: "s\(index)"))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, pass) in passes.enumerated() {
                    var bound = pass
                    bound.issuerBindingData = String(format: "%04x", index)
                    bound.keyHash = "c0ffee\(index)"
                    bound.accountBindingData = Data("must not be written".utf8)
                    group.addTask { try await repository.recordBinding(bound) }
                }
                try await group.waitForAll()
            }
            for (index, pass) in passes.enumerated() {
                let stored = try #require(try await repository.pass(id: pass.id))
                #expect(stored.issuerBindingData == String(format: "%04x", index))
                #expect(stored.keyHash == "c0ffee\(index)")
                #expect(stored.accountBindingData == Data("s\(index)".utf8))
            }
        }
    }

    @Test("tags made together are stored all or none", arguments: Engine.available)
    func createTagsAtomically(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let passes = try await Self.makePasses(3, in: repository)
            let existing = try #require(try await repository.tag(id: passes[0].tagID))
            let fresh = ClientTag(clientID: existing.clientID, userID: existing.userID, referenceID: "NEW")
            let clash = ClientTag(clientID: existing.clientID, userID: existing.userID, referenceID: "T1")
            func pass(for tag: ClientTag) -> StoredPass {
                StoredPass(
                    tagID: tag.id, passTypeID: passes[0].passTypeID, serialNumber: tag.id.uuidString,
                    passContent: Data())
            }
            await #expect(throws: WalletServerError.self) {
                try await repository.createTags([(fresh, pass(for: fresh)), (clash, pass(for: clash))])
            }
            #expect(try await repository.tag(id: fresh.id) == nil, "nothing of a refused batch is stored")
            let stranger = try await repository.createClient(name: "Other")
            let foreign = ClientTag(clientID: stranger.id, userID: existing.userID, referenceID: "X")
            await #expect(throws: WalletServerError.notFound("user \(existing.userID) of client \(stranger.id)")) {
                try await repository.createTags([(foreign, pass(for: foreign))])
            }
        }
    }

    @Test("an issuance target is the provisioning target without the pass's content", arguments: Engine.available)
    func issuanceTarget(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let pass = try #require(try await Self.makePasses(1, in: repository).first)
            let tag = try #require(try await repository.tag(id: pass.tagID))
            let full = try #require(
                try await repository.provisioningTarget(clientID: tag.clientID, attribute: .referenceID, value: "T0"))
            let target = try #require(
                try await repository.issuanceTarget(clientID: tag.clientID, attribute: .referenceID, value: "T0"))
            #expect(
                target
                    == IssuanceTarget(
                        tagID: tag.id, passID: pass.id, serialNumber: pass.serialNumber, passType: full.passType,
                        user: full.user, clientMayIssue: true))
            #expect(try await repository.issuanceTarget(clientID: UUID(), attribute: .referenceID, value: "T0") == nil)
        }
    }
}
