import CofferTestSupport
import Foundation
import Secrets
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WalletServer
import WalletServices
import WalletStore

@Suite("Idempotency keys on create: a retried request never makes two passes")
struct ManagementIdempotencyTests {
    typealias W = ManagementWorld

    func tagCount(_ world: ManagementWorld) async throws -> Int {
        try await world.world.repository.tags(clientID: world.clientID).count
    }

    @Test(
        "a retry with the same key and body answers the stored response and creates nothing",
        arguments: Engine.available)
    func replay(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let body = #"{"reference_id":"K-1","fields":{"seat":"3F"}}"#
            let first = try await W.send(
                client, .post, "/api/v2/passes", token: world.token, body: body, key: "order-1")
            #expect(first.status == .created)
            #expect(first.headers[HTTPField.Name("Idempotency-Replayed")!] == nil)
            let tags = try await tagCount(world)
            // The same request spelled differently (key order, whitespace) is the same request.
            let respelled = #"{ "fields": {"seat": "3F"}, "reference_id": "K-1" }"#
            for retry in [body, respelled] {
                let again = try await W.send(
                    client, .post, "/api/v2/passes", token: world.token, body: retry, key: "order-1")
                #expect(again.status == .created)
                #expect(again.body == first.body, "the very bytes of the first answer")
                #expect(again.headers[HTTPField.Name("Idempotency-Replayed")!] == "true")
            }
            #expect(try await tagCount(world) == tags)
        }
    }

    @Test("the same key with a different body is 422 idempotency_key_reused", arguments: Engine.available)
    func reuse(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            _ = try await W.send(
                client, .post, "/api/v2/passes", token: world.token, body: #"{"reference_id":"K-2"}"#, key: "k")
            let tags = try await tagCount(world)
            for body in [#"{"reference_id":"K-3"}"#, #"{"reference_id":"K-2","fields":{"seat":"1"}}"#] {
                let reused = try await W.send(client, .post, "/api/v2/passes", token: world.token, body: body, key: "k")
                #expect(reused.status == .unprocessableContent)
                #expect(reused.errorCode == "idempotency_key_reused")
            }
            #expect(try await tagCount(world) == tags)
        }
    }

    @Test("keys belong to a client: another client's same key makes its own pass")
    func perClient() async throws {
        try await W.run(.sqliteFile) { client, world in
            let body = #"{"reference_id":"K-4"}"#
            let passType = try #require(try await world.world.repository.passTypes().first)
            try await world.world.repository.grantPassType(
                passTypeID: passType.id, clientID: world.otherClientID, now: Date())
            let mine = try await W.send(client, .post, "/api/v2/passes", token: world.token, body: body, key: "same")
            let theirs = try await W.send(
                client, .post, "/api/v2/passes", token: world.otherToken, body: body, key: "same")
            #expect(mine.status == .created && theirs.status == .created)
            #expect(try W.state(mine.body).tag.id != W.state(theirs.body).tag.id)
        }
    }

    @Test(
        "a key that is empty, too long or not printable ASCII is 400",
        arguments: ["", String(repeating: "k", count: 256), "clé", "tab\there"])
    func badKeys(_ key: String) async throws {
        try await W.run(.sqliteFile) { client, world in
            let tags = try await tagCount(world)
            let answer = try await W.send(
                client, .post, "/api/v2/passes", token: world.token, body: #"{"reference_id":"K-5"}"#, key: key)
            #expect(answer.status == .badRequest)
            #expect(try await tagCount(world) == tags)
        }
    }

    @Test("a 255-character key works")
    func longestKey() async throws {
        try await W.run(.sqliteFile) { client, world in
            let answer = try await W.send(
                client, .post, "/api/v2/passes", token: world.token, body: #"{"reference_id":"K-6"}"#,
                key: String(repeating: "~", count: 255))
            #expect(answer.status == .created)
        }
    }

    @Test("concurrent requests with one key make one pass and all answer it", arguments: Engine.available)
    func concurrent(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let tags = try await tagCount(world)
            let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, Data).self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        let answer = try await W.send(
                            client, .post, "/api/v2/passes", token: world.token,
                            body: #"{"reference_id":"RACE-1"}"#, key: "race")
                        return (answer.status, answer.body)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.0 == .created }, "\(answers.map(\.0))")
            #expect(Set(answers.map(\.1)).count == 1, "one pass, one answer")
            #expect(try await tagCount(world) == tags + 1)
        }
    }

    @Test(
        "concurrent requests with one key on the repository, past the HTTP layer, make one pass",
        arguments: Engine.available)
    func concurrentRepository(_ engine: Engine) async throws {
        try await ManagementWorld.with(engine) { world in
            let key = try #require(IdempotencyKey("direct"))
            let request = PassCreationRequest(referenceID: "RACE-2")
            let answers = try await withThrowingTaskGroup(of: StoredResponse.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await world.management.create(request, clientID: world.clientID, idempotencyKey: key)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { !$0.replayed }.count == 1)
            #expect(Set(answers.map(\.body)).count == 1)
            #expect(
                try await world.world.repository.tags(clientID: world.clientID).filter { $0.referenceID == "RACE-2" }
                    .count == 1)
        }
    }

    @Test("a key is remembered for 24 hours, then it is a new key", arguments: Engine.available)
    func expiry(_ engine: Engine) async throws {
        let clock = ManualClock()
        try await ManagementWorld.with(engine, clock: clock) { world in
            let key = try #require(IdempotencyKey("daily"))
            _ = try await world.management.create(
                PassCreationRequest(referenceID: "D-1"), clientID: world.clientID, idempotencyKey: key)
            clock.advance(by: 23.9 * 3600)
            await #expect(throws: PassManagementFailure.idempotencyKeyReused) {
                try await world.management.create(
                    PassCreationRequest(referenceID: "D-2"), clientID: world.clientID, idempotencyKey: key)
            }
            clock.advance(by: 0.2 * 3600)
            let fresh = try await world.management.create(
                PassCreationRequest(referenceID: "D-2"), clientID: world.clientID, idempotencyKey: key)
            #expect(!fresh.replayed)
            #expect(try ManagementWorld.state(fresh.body).tag.referenceID == "D-2")
            // The session purger forgets the expired keys and keeps the others.
            clock.advance(by: 25 * 3600)
            _ = try await world.management.create(
                PassCreationRequest(referenceID: "D-3"), clientID: world.clientID,
                idempotencyKey: IdempotencyKey("next"))
            let repository = world.world.repository
            try await SessionPurger(repository: repository, interval: .seconds(60), batchSize: 1, clock: clock)
                .purge()
            #expect(try await repository.deleteExpiredIdempotencyKeys(before: clock.now, limit: 10) == 1, "only 'next'")
            #expect(try await repository.deleteExpiredIdempotencyKeys(before: clock.now, limit: 10) == 0)
        }
    }

    @Test("a failed create (a duplicate tag) stores nothing under its key: the retry is answered afresh")
    func failureIsNotStored() async throws {
        try await W.run(.sqliteFile) { client, world in
            let body = #"{"reference_id":"PASS-001"}"#
            let first = try await W.send(client, .post, "/api/v2/passes", token: world.token, body: body, key: "dup")
            #expect(first.status == .conflict)
            let second = try await W.send(client, .post, "/api/v2/passes", token: world.token, body: body, key: "dup")
            #expect(second.status == .conflict)
            let other = try await W.send(
                client, .post, "/api/v2/passes", token: world.token, body: #"{"reference_id":"NEW"}"#, key: "dup")
            #expect(other.status == .created, "the key was never claimed")
        }
    }
}
