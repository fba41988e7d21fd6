import CofferTestSupport
import Foundation
import SQLKit
import Synchronization
import Testing

@testable import WalletServer

@Suite("Group commit: concurrent writes share one transaction, and each caller still gets its own answer")
struct GroupCommitTests {
    /// Records the batches a committer was given.
    final class Batches: Sendable {
        private let sizes = Mutex([Int]())
        func record(_ size: Int) { sizes.withLock { $0.append(size) } }
        var all: [Int] { sizes.withLock { $0 } }
    }

    struct Refused: Error, Equatable {
        let entry: Int
    }

    @Test("entries that arrive during a commit are committed together, each answered with its own outcome")
    func batches() async throws {
        let batches = Batches()
        let commit = GroupCommit<Int, Int>(maximumBatchSize: 16) { entries in
            batches.record(entries.count)
            try await Task.sleep(for: .milliseconds(20))
            return entries.map { $0 * 10 }
        }
        let outcomes = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for entry in 0..<64 { group.addTask { (entry, try await commit.submit(entry)) } }
            return try await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes.count == 64)
        #expect(outcomes.allSatisfy { $0.value == $0.key * 10 })
        #expect(batches.all.reduce(0, +) == 64, "every entry committed once")
        #expect(batches.all.count < 64, "some entries shared a commit: \(batches.all)")
        #expect(batches.all.allSatisfy { $0 <= 16 }, "no batch is larger than asked: \(batches.all)")
    }

    @Test("when a batch fails, its entries are committed alone: only the bad one's caller gets the error")
    func isolatesFailures() async throws {
        let batches = Batches()
        let commit = GroupCommit<Int, Int> { entries in
            batches.record(entries.count)
            try await Task.sleep(for: .milliseconds(5))
            if let bad = entries.first(where: { $0 % 7 == 3 }) { throw Refused(entry: bad) }
            return entries
        }
        let results = await withTaskGroup(of: (Int, Result<Int, Refused>).self) { group in
            for entry in 0..<40 {
                group.addTask {
                    do {
                        return (entry, .success(try await commit.submit(entry)))
                    } catch let error as Refused {
                        return (entry, .failure(error))
                    } catch {
                        Issue.record("unexpected error \(error)")
                        return (entry, .failure(Refused(entry: -1)))
                    }
                }
            }
            return await group.reduce(into: [Int: Result<Int, Refused>]()) { $0[$1.0] = $1.1 }
        }
        for entry in 0..<40 {
            if entry % 7 == 3 {
                #expect(results[entry] == .failure(Refused(entry: entry)))
            } else {
                #expect(results[entry] == .success(entry))
            }
        }
    }

    @Test("a lone entry is committed at once, and the batcher starts again after it goes idle")
    func idle() async throws {
        let commit = GroupCommit<String, String> { $0.map { $0.uppercased() } }
        #expect(try await commit.submit("a") == "A")
        try await Task.sleep(for: .milliseconds(10))
        #expect(try await commit.submit("b") == "B")
    }
}

@Suite("The repository's batched writes keep each write's meaning on SQLite and PostgreSQL")
struct BatchedWriteTests {
    /// A client with a user, a pass type and `count` tags, each with a pass.
    static func makePasses(_ count: Int, in repository: SQLWalletRepository) async throws -> [ApplePass] {
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
                pass: ApplePass(tagID: tag.id, passTypeID: passType.id, serialNumber: "S\(index)", passContent: Data())
            )
        }
        try await repository.createTags(made)
        return made.map(\.pass)
    }

    static func issuance(_ pass: ApplePass, session: String, at time: Date = Date()) -> Issuance {
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
        "concurrent issuances for one pass leave one open session, the one whose binding data the pass records",
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
            let ghost = ApplePass(tagID: UUID(), passTypeID: UUID(), serialNumber: "ghost", passContent: Data())
            let results = await withTaskGroup(of: (String, Bool).self) { group in
                for (index, pass) in (passes + [ghost]).enumerated() {
                    group.addTask {
                        let stored = (try? await repository.recordIssuance(Self.issuance(pass, session: "s\(index)")))
                        return ("s\(index)", stored != nil)
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
            func pass(for tag: ClientTag) -> ApplePass {
                ApplePass(
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
                        tagID: tag.id, passID: pass.id, passType: full.passType, user: full.user, clientMayIssue: true))
            #expect(try await repository.issuanceTarget(clientID: UUID(), attribute: .referenceID, value: "T0") == nil)
        }
    }
}

@Suite("Recently authenticated API users are trusted for a few seconds, never longer")
struct RecentlyAuthenticatedTests {
    let user = APIUser(clientID: UUID(), name: "app", tokenHash: Data([1, 2, 3]))

    @Test("a kept user is answered until its lifetime ends, then forgotten")
    func lifetime() {
        let cache = RecentlyAuthenticated(lifetime: .seconds(5))
        let start = ContinuousClock.now
        #expect(cache.user(tokenHash: user.tokenHash, now: start) == nil, "unknown until kept")
        cache.keep(user, tokenHash: user.tokenHash, now: start)
        #expect(cache.user(tokenHash: user.tokenHash, now: start + .seconds(4)) == user)
        #expect(cache.user(tokenHash: user.tokenHash, now: start + .seconds(5)) == nil)
        #expect(cache.user(tokenHash: user.tokenHash, now: start + .seconds(1)) == nil, "an expired entry is gone")
    }

    @Test("forgetting a user (revoked here) drops it at once; a zero lifetime keeps nothing")
    func forget() {
        let cache = RecentlyAuthenticated(lifetime: .seconds(5))
        cache.keep(user, tokenHash: user.tokenHash)
        cache.forget(userID: user.id)
        #expect(cache.user(tokenHash: user.tokenHash) == nil)
        let never = RecentlyAuthenticated(lifetime: .zero)
        never.keep(user, tokenHash: user.tokenHash)
        #expect(never.user(tokenHash: user.tokenHash) == nil)
    }

    @Test("a full cache makes room instead of growing")
    func capacity() {
        let cache = RecentlyAuthenticated(lifetime: .seconds(5), capacity: 4)
        let start = ContinuousClock.now
        for index in 0..<10 { cache.keep(user, tokenHash: Data([UInt8(index)]), now: start) }
        let kept = (0..<10).filter { cache.user(tokenHash: Data([UInt8($0)]), now: start) != nil }
        #expect(kept.count <= 4)
        #expect(kept.contains(9), "the newest is kept")
    }

    @Test(
        "a revocation through the repository takes effect at once; one made elsewhere within the lifetime",
        arguments: Engine.available)
    func revocation(_ engine: Engine) async throws {
        let directory = try TemporaryDirectory()
        let url = try await engine.makeDatabaseURL(in: directory)
        let database = try await Engine.migrated(try WalletDatabase.open(url: url))
        let other = try WalletDatabase.open(url: url)
        let repository = SQLWalletRepository(database: database, authenticationLifetime: .milliseconds(300))
        let elsewhere = SQLWalletRepository(database: other)
        let client = try await repository.createClient(name: "Acme")
        let (first, firstToken) = try await repository.createAPIUser(clientID: client.id, name: "one")
        let (second, secondToken) = try await repository.createAPIUser(clientID: client.id, name: "two")
        #expect(try await repository.apiUser(token: firstToken)?.id == first.id)
        #expect(try await repository.apiUser(token: secondToken)?.id == second.id)

        #expect(try await repository.revokeAPIUser(id: first.id))
        #expect(try await repository.apiUser(token: firstToken) == nil, "revoked here: refused at once")

        #expect(try await elsewhere.revokeAPIUser(id: second.id))
        try await Task.sleep(for: .milliseconds(400))
        #expect(
            try await repository.apiUser(token: secondToken) == nil, "revoked elsewhere: refused after the lifetime")
        try await other.shutdown()
        try await database.shutdown()
    }
}
