import CofferTestSupport
import Foundation
@_spi(Testing) import Secrets
import Testing

@Suite("SecretsStore serializes writes per item, never makes reads wait, and reports changes without values")
struct SecretsStoreTests {
    static let backends: [BackendKind] = [.inMemory, .encryptedFileAES]

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    private func makeStore(_ kind: BackendKind) throws -> (SecretsStore, GatedBackend) {
        let backend = GatedBackend(try kind.makeBackend(in: directory))
        return (SecretsStore(backend: backend), backend)
    }

    private static func bytes(_ text: String) -> Data { Data(text.utf8) }

    @Test(
        "64 tasks saving, reading and deleting shared and own items read their own writes and lose nothing",
        .timeLimit(.minutes(2)), arguments: backends)
    func hammering(kind: BackendKind) async throws {
        let (store, backend) = try makeStore(kind)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<64 {
                group.addTask {
                    let own = "own/\(task)"
                    let shared = "shared/\(task % 4)"
                    try await store.save(Self.bytes("\(task)-1"), account: own)
                    #expect(try await store.read(account: own) == Self.bytes("\(task)-1"))
                    try await store.save(Self.bytes("\(task)-shared"), account: shared)
                    try await store.save(Self.bytes("\(task)-2"), account: own)
                    #expect(try await store.read(account: own) == Self.bytes("\(task)-2"))
                    if task % 3 == 0 { try await store.delete(account: shared) }
                    if task % 2 == 0 {
                        #expect(try await store.delete(account: own))
                        #expect(try await store.read(account: own) == nil)
                    }
                }
            }
            try await group.waitForAll()
        }

        // Nothing lost: every write reached the backend once.
        let log = backend.log
        #expect(log.filter { if case .save = $0 { true } else { false } }.count == 64 * 3)
        #expect(log.filter { if case .delete = $0 { true } else { false } }.count == 22 + 32)

        // The final state is the log replayed: each item holds its last completed write.
        var model: [String: Data] = [:]
        for write in log {
            switch write {
            case .save(let account, let data): model[account] = data
            case .delete(let account, _): model[account] = nil
            }
        }
        for task in 0..<64 where task % 2 == 1 {
            #expect(model["own/\(task)"] == Self.bytes("\(task)-2"))
        }
        #expect(try await store.listAccounts() == model.keys.sorted())
        for (account, data) in model {
            #expect(try await store.read(account: account) == data)
        }
    }

    @Test("a read of one item returns while a save of another is blocked", .timeLimit(.minutes(1)), arguments: backends)
    func readsDoNotWaitForOtherWrites(kind: BackendKind) async throws {
        let (store, backend) = try makeStore(kind)
        try await store.save(Self.bytes("b"), account: "b")
        let gate = backend.gate("a")
        let blocked = Task { try await store.save(Self.bytes("a"), account: "a") }
        await gate.waitUntilEntered()

        // The save of "a" is held at the gate; none of these can finish if they wait for it.
        #expect(try await store.read(account: "b") == Self.bytes("b"))
        #expect(try await store.read(account: "a") == nil)
        #expect(try await store.listAccounts() == ["b"])
        try await store.save(Self.bytes("c"), account: "c")
        #expect(try await store.delete(account: "b"))
        #expect(!backend.log.contains { $0.account == "a" })

        #expect(!gate.timedOut)
        gate.open()
        try await blocked.value
        #expect(try await store.read(account: "a") == Self.bytes("a"))
    }

    @Test("writes to one item run one at a time, in the order they reached the store", .timeLimit(.minutes(1)))
    func perItemOrdering() async throws {
        let (store, backend) = try makeStore(.encryptedFileAES)
        var changes = store.changes().makeAsyncIterator()
        let gate = backend.gate("a")
        let first = Task { try await store.save(Self.bytes("1"), account: "a") }
        await gate.waitUntilEntered()
        let second = Task { try await store.save(Self.bytes("2"), account: "a") }
        while await store.waitingWriteCount(for: "a") < 1, !gate.timedOut { await Task.yield() }
        let third = Task { try await store.delete(account: "a") }
        while await store.waitingWriteCount(for: "a") < 2, !gate.timedOut { await Task.yield() }
        let fourth = Task { try await store.save(Self.bytes("4"), account: "a") }
        while await store.waitingWriteCount(for: "a") < 3, !gate.timedOut { await Task.yield() }

        // Nothing behind the blocked save has reached the backend.
        #expect(backend.log.isEmpty)
        #expect(!gate.timedOut)
        gate.open()
        try await first.value
        try await second.value
        #expect(try await third.value)
        try await fourth.value

        #expect(
            backend.log == [
                .save(account: "a", data: Self.bytes("1")), .save(account: "a", data: Self.bytes("2")),
                .delete(account: "a", existed: true), .save(account: "a", data: Self.bytes("4")),
            ])
        #expect(try await store.read(account: "a") == Self.bytes("4"))
        var seen: [SecretsStoreChange.Kind] = []
        for _ in 0..<4 { seen.append(try #require(await changes.next()).kind) }
        #expect(seen == [.saved, .saved, .deleted, .saved])
    }

    @Test("every subscriber gets each change, in order, with no value in it", arguments: backends)
    func notifications(kind: BackendKind) async throws {
        let (store, _) = try makeStore(kind)
        let streams = [store.changes(), store.changes()]
        #expect(store.subscriberCount == 2)

        try await store.save(StoreTestSecret(value: "hunter2"))
        #expect(try await store.read(StoreTestSecret.id)?.value == "hunter2")
        #expect(try await store.delete(StoreTestSecret.id))
        #expect(try await !store.delete(StoreTestSecret.id))  // nothing there: no change
        try await store.save(Self.bytes("x"), account: "other")

        let expected = [
            SecretsStoreChange(account: "test/store", kind: .saved),
            SecretsStoreChange(account: "test/store", kind: .deleted),
            SecretsStoreChange(account: "other", kind: .saved),
        ]
        for stream in streams {
            var iterator = stream.makeAsyncIterator()
            var received: [SecretsStoreChange] = []
            for _ in expected { received.append(try #require(await iterator.next())) }
            #expect(received == expected)
        }
        #expect(Mirror(reflecting: expected[0]).children.map(\.label) == ["account", "kind"])
        #expect(expected[0].description == "saved 'test/store'")
        #expect(!expected.map(\.description).joined().contains("hunter2"))
    }

    @Test("a subscriber that stops iterating or lets go of its stream is removed", .timeLimit(.minutes(1)))
    func subscribersAreRemoved() async throws {
        let (store, _) = try makeStore(.inMemory)
        do {
            _ = store.changes()
        }
        #expect(store.subscriberCount == 0)

        let kept = store.changes()
        let consumer = Task {
            for await _ in store.changes() {}
        }
        while store.subscriberCount < 2 { await Task.yield() }
        consumer.cancel()
        await consumer.value
        #expect(store.subscriberCount == 1)

        try await store.save(Self.bytes("x"), account: "after")
        var iterator = kept.makeAsyncIterator()
        #expect(await iterator.next() == SecretsStoreChange(account: "after", kind: .saved))
    }

    @Test("a slow subscriber keeps the newest changes, up to the buffer size")
    func bufferingNewest() async throws {
        let store = SecretsStore(AggregateSecretsStore(backend: InMemoryBackend()), changeBufferSize: 2)
        var iterator = store.changes().makeAsyncIterator()
        for index in 0..<5 { try await store.save(Self.bytes("v"), account: "item/\(index)") }
        #expect(await iterator.next()?.account == "item/3")
        #expect(await iterator.next()?.account == "item/4")
    }

    @Test("the backend's errors come through as the same SecretsError, and a failed write reports no change")
    func errorsSurfaceTyped() async throws {
        let store = SecretsStore(
            backend: try EncryptedFileBackend(
                directory: directory.appending("small"), key: .passphrase("test passphrase"),
                options: .weakKeyDerivationForTesting(maximumValueSize: 16)))
        var changes = store.changes().makeAsyncIterator()

        await #expect(throws: SecretsError.tooLarge(byteCount: 17, limit: 16)) {
            try await store.save(Data(count: 17), account: "big")
        }
        for bad in ["", "../outside", "a//b"] {
            await #expect(throws: SecretsError.self) { try await store.save(Self.bytes("x"), account: bad) }
            await #expect(throws: SecretsError.self) { _ = try await store.read(account: bad) }
            await #expect(throws: SecretsError.self) { try await store.delete(account: bad) }
        }
        let error = await #expect(throws: SecretsError.self) { try await store.save(BadStoreTestSecret(value: "x")) }
        guard case .invalidIdentifier = error else {
            Issue.record("expected invalidIdentifier, got \(String(describing: error))")
            return
        }

        let locked = SecretsStore(backend: LockedBackend())
        await #expect(throws: SecretsError.locked("test keyring")) { try await locked.listAccounts() }
        await #expect(throws: SecretsError.locked("test keyring")) { _ = try await locked.read(account: "a") }

        // The first change a subscriber sees is the first write that succeeded.
        try await store.save(Self.bytes("fits"), account: "ok")
        #expect(await changes.next() == SecretsStoreChange(account: "ok", kind: .saved))
    }
}

private struct StoreTestSecret: Codable, SecretCoder {
    static let id = ServiceID<StoreTestSecret>(path: "test/store")
    var value: String
}

private struct BadStoreTestSecret: Codable, SecretCoder {
    static let id = ServiceID<BadStoreTestSecret>(path: "../outside")
    var value: String
}
