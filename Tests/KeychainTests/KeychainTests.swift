import CofferTestSupport
import Foundation
import Keychain
import Secrets
import Testing

/// A backend that counts reads, can fail on demand, and can pause a little inside each call to widen races.
final class InstrumentedBackend: SecretsBackend {
    let inner = InMemoryBackend()
    private let state = NSLock()
    nonisolated(unsafe) private var readCount = 0
    nonisolated(unsafe) private var failure: SecretsError?
    let jitter: Bool

    init(jitter: Bool = false) { self.jitter = jitter }

    var reads: Int { state.withLock { readCount } }
    func fail(with error: SecretsError?) { state.withLock { failure = error } }

    private func enter() throws {
        if jitter { usleep(UInt32.random(in: 0...40)) }
        if let failure = state.withLock({ failure }) { throw failure }
    }

    func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws {
        try enter()
        try inner.save(data, for: query)
    }
    func read<Value>(_ query: SecretQuery<Value>) throws -> Data? {
        state.withLock { readCount += 1 }
        try enter()
        let data = try inner.read(query)
        if jitter { usleep(UInt32.random(in: 0...40)) }
        return data
    }
    func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool {
        try enter()
        return try inner.delete(query)
    }
    func listAccounts(service: String, accessGroup: String?) throws -> [String] {
        try enter()
        return try inner.listAccounts(service: service, accessGroup: accessGroup)
    }
}

struct Profile: Codable, Equatable {
    var name: String
    var age: Int
}

@Suite("Keychain: typed values by key over injected operations")
struct KeychainTests {
    let backend = InstrumentedBackend()
    var engine: KeychainEngine { KeychainEngine(backend: backend, service: "tests") }

    @Test("each subscript type round-trips, and nil deletes")
    func subscripts() throws {
        let keychain = Keychain(engine: engine)
        keychain["token"] = "sk-123"
        keychain[data: "blob"] = Data([0, 255, 1])
        keychain[bool: "onboarded"] = true
        keychain[int: "launches"] = -42
        keychain[double: "ratio"] = 0.1 + 0.2
        keychain["profile", as: Profile.self] = Profile(name: "Ada", age: 36)
        #expect(keychain["token"] == "sk-123")
        #expect(keychain[data: "blob"] == Data([0, 255, 1]))
        #expect(keychain[bool: "onboarded"] == true)
        #expect(keychain[int: "launches"] == -42)
        #expect(keychain[double: "ratio"] == 0.1 + 0.2)
        #expect(keychain["profile", as: Profile.self] == Profile(name: "Ada", age: 36))
        keychain["token"] = nil
        #expect(keychain["token"] == nil)
        #expect(try backend.inner.read(SecretQuery<Data>(service: "tests", account: "token")) == nil)
    }

    @Test("the initializer takes the operations, so a dictionary can stand in for the store")
    func injectedHandlers() throws {
        final class Box: @unchecked Sendable {
            // Safe: the test uses it from one task at a time.
            var values: [String: Data] = [:]
        }
        let box = Box()
        let keychain = Keychain(
            read: { box.values[$0] }, write: { box.values[$1] = $0 }, delete: { box.values[$0] = nil },
            reset: { box.values.removeAll() })
        keychain[int: "n"] = 7
        #expect(box.values["n"] == Data("7".utf8))
        try keychain.reset()
        #expect(box.values.isEmpty)
    }

    @Test("reads are cache-aside: the store is read once, writes refresh the cache, clearing it reads again")
    func cacheAside() throws {
        let engine = engine
        try engine.write(Data("v1".utf8), "k")
        #expect(try engine.read("k") == Data("v1".utf8))
        #expect(backend.reads == 0, "the write filled the cache")
        engine.clearCache()
        #expect(try engine.read("k") == Data("v1".utf8))
        #expect(try engine.read("k") == Data("v1".utf8))
        #expect(backend.reads == 1)
    }

    @Test("a store that fails a write leaves the cache as it was; subscripts report errors and read nil")
    func failingStore() throws {
        let engine = engine
        try engine.write(Data("old".utf8), "k")
        backend.fail(with: .locked("the test store"))
        #expect(throws: SecretsError.locked("the test store")) { try engine.write(Data("new".utf8), "k") }
        #expect(try engine.read("k") == Data("old".utf8), "served from the cache, which kept the stored value")
        #expect(throws: SecretsError.locked("the test store")) { try engine.delete("k") }

        let reported = Recorder()
        let keychain = Keychain(engine: engine) { error, key in reported.append("\(key): \(error)") }
        keychain["other"] = "x"
        #expect(keychain["missing"] == nil)
        #expect(reported.values.count == 2)
        #expect(reported.values.allSatisfy { $0.contains("locked") })
        backend.fail(with: nil)
        #expect(throws: Never.self) { try Keychain(engine: engine).string(forKey: "missing") }
    }

    @Test("bytes of the wrong shape are a decoding error, not nil")
    func wrongShape() throws {
        let keychain = Keychain(engine: engine)
        try keychain.set(Data([0xFF, 0xFE]), forKey: "k")
        #expect(throws: SecretsError.self) { try keychain.string(forKey: "k") }
        try keychain.set("not a number", forKey: "n")
        #expect(keychain[int: "n"] == nil)
        #expect(throws: SecretsError.self) { try keychain.value(Profile.self, forKey: "n") }
    }

    @Test("reset deletes every key of the service and nothing else, and empties the cache")
    func reset() throws {
        let other = SecretQuery<Data>(service: "other-service", account: "keep")
        try backend.inner.save(Data("kept".utf8), for: other)
        let keychain = Keychain(engine: engine)
        keychain["a"] = "1"
        keychain["b/c"] = "2"
        try keychain.reset()
        #expect(keychain["a"] == nil)
        #expect(try backend.inner.listAccounts(service: "tests", accessGroup: nil).isEmpty)
        #expect(try backend.inner.read(other) == Data("kept".utf8))
    }

    @Test("a read that raced a write never puts the older value back into the cache")
    func readRacingWrite() async throws {
        let backend = GatedBackend()
        let engine = KeychainEngine(backend: backend, service: "race")
        try engine.write(Data("v1".utf8), "k")
        engine.clearCache()
        backend.holdNextRead()
        let reader = Task.detached { try engine.read("k") }
        backend.waitUntilReadHeld()  // the reader has v1 from the store and is about to return it
        try engine.write(Data("v2".utf8), "k")
        backend.releaseRead()
        #expect(try await reader.value == Data("v1".utf8), "the racing read may return what it saw")
        #expect(try engine.read("k") == Data("v2".utf8), "but after the write returned, every read sees v2")
    }

    @Test("thousands of concurrent reads and writes: every task reads its own writes, and cache and store agree")
    func stress() async throws {
        let backend = InstrumentedBackend(jitter: true)
        let engine = KeychainEngine(backend: backend, service: "stress")
        let tasks = 16
        let rounds = 250
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for round in 0..<rounds {
                        let own = "task-\(task)/\(round % 5)"
                        let value = Data("\(task)-\(round)".utf8)
                        try engine.write(value, own)
                        let read = try engine.read(own)
                        guard read == value else {
                            throw SecretsError.corruptData(
                                "stale read of \(own): \(String(decoding: read ?? Data(), as: UTF8.self))")
                        }
                        let shared = "shared/\(round % 3)"
                        if round.isMultiple(of: 4) { engine.clearCache() }
                        if (task + round).isMultiple(of: 2) {
                            try engine.write(value, shared)
                        } else {
                            _ = try engine.read(shared)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let fresh = KeychainEngine(backend: backend.inner, service: "stress")
        for key in try fresh.keys() {
            #expect(try engine.read(key) == fresh.read(key), "\(key): the cache disagrees with the store")
        }
        #expect(try fresh.keys().count == tasks * 5 + 3)
    }
}

/// A store whose next read can be held after it has read the value, until released.
final class GatedBackend: SecretsBackend {
    let inner = InMemoryBackend()
    private let lock = NSLock()
    nonisolated(unsafe) private var armed = false
    private let held = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)

    func holdNextRead() { lock.withLock { armed = true } }
    func waitUntilReadHeld() { held.wait() }
    func releaseRead() { release.signal() }

    func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws { try inner.save(data, for: query) }
    func read<Value>(_ query: SecretQuery<Value>) throws -> Data? {
        let data = try inner.read(query)
        let hold = lock.withLock {
            defer { armed = false }
            return armed
        }
        if hold {
            held.signal()
            release.wait()
        }
        return data
    }
    func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool { try inner.delete(query) }
    func listAccounts(service: String, accessGroup: String?) throws -> [String] {
        try inner.listAccounts(service: service, accessGroup: accessGroup)
    }
}
