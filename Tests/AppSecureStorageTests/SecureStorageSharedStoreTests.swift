import AppSecureStorage
import CofferTestSupport
import Foundation
import Keychain
import Secrets
import SecretsAudit
import SecretsKeychain
import Testing

@Suite(
    "@AppSecureStorage on a shared SecretsStore: same behaviour, and changes made elsewhere reach it",
    .timeLimit(.minutes(1)))
struct SecureStorageSharedStoreTests {
    let keychain = SecItemEmulator()
    let reports = Recorder()
    let secrets: SecretsStore

    init() {
        secrets = SecretsStore(
            backend: AppleKeychainBackend(emulator: keychain), configuration: SecretsConfiguration(service: "app"))
    }

    func makeStorage() -> SecureStorage {
        SecureStorage(store: secrets) { [reports] error, key in reports.append("\(key): \(error)") }
    }

    /// A stream with one element per notification of `key`'s observers.
    func notifications(of key: String, in storage: SecureStorage) -> (AsyncStream<Void>, SecureStorage.Observation) {
        var made: AsyncStream<Void>.Continuation?
        let stream = AsyncStream<Void> { made = $0 }
        let continuation = made!
        return (stream, storage.observe(key) { continuation.yield() })
    }

    @Test("strings and Codable values are written through the store, read back at once, and deleted by nil")
    func roundTrip() async throws {
        let storage = makeStorage()
        @AppSecureStorage("openaikey", store: storage) var key: String?
        @AppSecureStorage("settings", store: storage) var settings: Settings?
        #expect(key == nil)
        key = "sk-123"
        settings = Settings(theme: "dark", fontSize: 14)
        #expect(key == "sk-123", "a wrapper reads its own write before the store has it")
        #expect(settings == Settings(theme: "dark", fontSize: 14))
        await storage.flush()
        #expect(try await secrets.read(account: "openaikey") == Data("sk-123".utf8))
        #expect(try await secrets.read(account: "settings") == Data(#"{"fontSize":14,"theme":"dark"}"#.utf8))

        key = nil
        #expect(key == nil)
        await storage.flush()
        #expect(try await secrets.read(account: "openaikey") == nil)
        #expect(try await secrets.listAccounts() == ["settings"])
        #expect(reports.values.isEmpty)
    }

    @Test("quick successive writes reach the store in order, each reported to subscribers, the last one kept")
    func writesAreOrdered() async throws {
        let storage = makeStorage()
        var changes = secrets.changes().makeAsyncIterator()
        @AppSecureStorage("token", store: storage) var token: String?
        for value in 1...20 { token = "v\(value)" }
        token = nil
        token = "last"
        #expect(token == "last")
        await storage.flush()
        #expect(try await secrets.read(account: "token") == Data("last".utf8))
        var kinds: [SecretsStoreChange.Kind] = []
        for _ in 0..<22 { kinds.append(try #require(await changes.next()).kind) }
        #expect(kinds == Array(repeating: .saved, count: 20) + [.deleted, .saved])
    }

    @Test("a value saved through the store elsewhere replaces the cached one and notifies the key's observers")
    func externalSave() async throws {
        try await secrets.save(Data("old".utf8), account: "token")
        let storage = makeStorage()
        @AppSecureStorage("token", store: storage) var token: String?
        #expect(token == "old")  // now cached
        #expect(token == "old")
        let (heard, observation) = notifications(of: "token", in: storage)
        var iterator = heard.makeAsyncIterator()

        try await secrets.save(Data("refreshed".utf8), account: "token")
        await iterator.next()
        #expect(token == "refreshed", "the cache does not answer the value the store replaced")

        #expect(try await secrets.delete(account: "token"))
        await iterator.next()
        #expect(token == nil)
        observation.cancel()
        #expect(reports.values.isEmpty)
    }

    @Test("observers hear a wrapper's write once, when it is made, and a change made elsewhere once")
    func notifiedOnce() async throws {
        let storage = makeStorage()
        @AppSecureStorage("token", store: storage) var token: String?
        let (heard, observation) = notifications(of: "token", in: storage)
        var iterator = heard.makeAsyncIterator()
        let count = Recorder()
        let counting = storage.observe("token") { count.append("heard") }

        token = "mine"
        #expect(count.values.count == 1, "the write is heard as the wrapper is set")
        await iterator.next()
        await storage.flush()
        try await secrets.save(Data("theirs".utf8), account: "token")
        await iterator.next()
        #expect(token == "theirs")
        // Changes are followed in order: once a later change of another key is heard, every change of this one was.
        let (other, otherObservation) = notifications(of: "other", in: storage)
        var otherIterator = other.makeAsyncIterator()
        try await secrets.save(Data("x".utf8), account: "other")
        await otherIterator.next()
        #expect(count.values.count == 2, "the store's report of our own write is not heard again")
        observation.cancel()
        counting.cancel()
        otherObservation.cancel()
    }

    @Test("a change to another key leaves this key's observers alone")
    func otherKeys() async throws {
        let storage = makeStorage()
        let heard = Recorder()
        let observation = storage.observe("token") { heard.append("token") }
        let (other, otherObservation) = notifications(of: "other", in: storage)
        var iterator = other.makeAsyncIterator()
        try await secrets.save(Data("x".utf8), account: "other")
        await iterator.next()
        #expect(heard.values.isEmpty)
        observation.cancel()
        otherObservation.cancel()
    }

    @Test("a write the store refuses is reported, and the key then reads what is stored")
    func lockedKeychain() async throws {
        let storage = makeStorage()
        @AppSecureStorage("token", store: storage) var token: String?
        token = "kept"
        await storage.flush()
        keychain.setLocked(true)
        token = "new"
        #expect(token == "new")
        await storage.flush()
        #expect(reports.values.count == 1)
        #expect(reports.values.allSatisfy { $0.hasPrefix("token: ") && $0.contains("locked") })
        #expect(token == nil, "a locked store reads as nil and is reported")
        #expect(reports.values.count == 2)
        keychain.setLocked(false)
        #expect(token == "kept")
    }

    @Test("a wrapper asking for another accessibility than the store keeps is refused, and nothing is written")
    func accessibilityMismatch() async throws {
        let storage = makeStorage()
        @AppSecureStorage("background", accessibility: .afterFirstUnlockThisDeviceOnly, store: storage)
        var background: String?
        background = "b"
        await storage.flush()
        #expect(background == nil)
        #expect(try await secrets.listAccounts().isEmpty)
        #expect(reports.values.count == 1)
        #expect(reports.values.first?.contains("another accessibility") == true)
    }

    @Test("the engine of a shared-store storage reads the store's items but refuses to write past the actor")
    func engineIsReadOnly() async throws {
        try await secrets.save(Data("v".utf8), account: "k")
        let storage = makeStorage()
        #expect(try storage.engine.read("k") == Data("v".utf8))
        #expect(try storage.engine.keys() == ["k"])
        #expect {
            try storage.engine.write(Data("w".utf8), "k")
        } throws: { error in
            guard case SecretsError.unsupported = error else { return false }
            return true
        }
        #expect(try await secrets.read(account: "k") == Data("v".utf8))
    }

    @Test("the store's own accessibility is the one wrappers must ask for, seen through an audit too")
    func auditedStorePolicy() async throws {
        let aggregate = AggregateSecretsStore(
            backend: AppleKeychainBackend(emulator: keychain),
            configuration: SecretsConfiguration(
                service: "app", accessPolicy: AccessPolicy(accessibility: .afterFirstUnlockThisDeviceOnly)))
        let audited = SecretsStore(aggregate, audit: SecretsAudit(sinks: []))
        let storage = SecureStorage(store: audited) { [reports] error, key in reports.append("\(key): \(error)") }
        @AppSecureStorage("background", accessibility: .afterFirstUnlockThisDeviceOnly, store: storage)
        var background: String?
        @AppSecureStorage("plain", store: storage) var plain: String?
        background = "b"
        plain = "p"
        await storage.flush()
        #expect(try await audited.listAccounts() == ["background"])
        #expect(reports.values.count == 1)
        #expect(reports.values.first?.hasPrefix("plain: ") == true)
    }
}
