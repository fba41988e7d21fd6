import CofferTestSupport
import Foundation
import LocalData
import Secrets
import Testing

@Suite("The domain helpers on their own")
struct ValueStoreTests {
    @Test("FileValueStore writes, reads, lists, sizes and deletes values; names never become paths")
    func files() async throws {
        let directory = try TemporaryDirectory(prefix: "coffer-files")
        let helper = FileValueStore(service: "dev.coffer.tests", maximumValueSize: 1024)
        let store = FileValueStore.plainStoreDirectory(in: directory.url)
        try await helper.write(Data("one".utf8), name: "a/one", in: store)
        try await helper.write(Data("three".utf8), name: "b", in: store)
        #expect(try await helper.list(in: store) == ["a/one", "b"])
        #expect(try await helper.size(name: "b", in: store) == 5)
        #expect(try await helper.size(name: "absent", in: store) == nil)
        #expect(try await helper.diskSize(of: store) > 8)
        #expect(try await helper.delete(name: "a/one", in: store))
        #expect(try await helper.delete(name: "a/one", in: store) == false)
        #expect(try await helper.read(name: "b", in: store) == Data("three".utf8))
        await #expect(throws: SecretsError.tooLarge(byteCount: 2048, limit: 1024)) {
            try await helper.write(Data(count: 2048), name: "big", in: store)
        }
        await #expect(throws: SecretsError.self) { try await helper.write(Data(), name: "../x", in: store) }
        let names = try FileManager.default.subpathsOfDirectory(atPath: directory.url.path)
        #expect(!names.contains { $0.contains("one") || $0.hasSuffix("/b") })
    }

    @Test("DefaultsValueStore lists a suite's keys and reads values other code wrote as property lists")
    func defaults() async throws {
        let suite = "group.dev.coffer.helper.\(UUID().uuidString.prefix(8))"
        defer { UserDefaults.standard.removePersistentDomain(forName: suite) }
        let helper = DefaultsValueStore()
        try await helper.set(Data("x".utf8), forKey: "b", suite: suite)
        try #require(UserDefaults(suiteName: suite)).set(["nested": [1, 2]], forKey: "a")
        #expect(try await helper.keys(suite: suite) == ["a", "b"])
        let legacy = try #require(try await helper.data(forKey: "a", suite: suite))
        #expect(try Serializer<[String: [Int]]>.propertyList.decode(legacy) == ["nested": [1, 2]])
        #expect(try await helper.remove(forKey: "a", suite: suite))
        #expect(try await helper.exists(forKey: "a", suite: suite) == false)
        await #expect(throws: SecretsError.self) { try await helper.set(Data(), forKey: "k", suite: "../etc") }
    }

    @Test("KeychainValueStore lists and removes its values, keeping the keys of encrypted stores")
    func keychain() async throws {
        let fixture = try RouterFixture(maximumKeychainValueSize: 64)
        let helper = fixture.router.keychain
        try await helper.set(Data("small".utf8), account: "a", accessPolicy: .defaultSyncableWhenUnlocked)
        try await helper.set(Data(count: 500), account: "b", accessPolicy: .defaultSyncableWhenUnlocked)
        #expect(try await helper.accounts() == ["a", "b"])
        #expect(try await helper.exists(account: "b"))
        #expect(try await helper.deleteAll() == 2)
        #expect(try await helper.accounts().isEmpty)
        #expect(
            try fixture.keychainBackend.listAccounts(service: fixture.applicationIdentifier, accessGroup: nil)
                == [KeychainValueStore.overflowKeyAccount])
    }

    @Test("without a key store, keychain keys and key-store-keyed files are unavailable; other domains work")
    func absentKeyStore() async throws {
        let fixture = try RouterFixture()
        let configuration = StorageConfiguration(
            applicationIdentifier: fixture.applicationIdentifier, locations: fixture.router.configuration.locations,
            keychainBackend: { throw SecretsError.unavailable("no Secret Service answers on the session bus") },
            syncTransport: nil)
        let router = StorageRouter(configuration: configuration)
        for key in [
            testKey(.keychain, serializer: Serializer<String>.json),
            testKey(.encryptedFileSystem(directory: .documents), serializer: Serializer<String>.json),
        ] {
            await #expect {
                try await router.set("x", for: key)
            } throws: { error in
                guard case StorageError.store(_, .unavailable) = error else { return false }
                return "\(error)".contains("Secret Service")
            }
        }
        let plain = testKey(.fileSystem(directory: .documents), serializer: Serializer<String>.json)
        try await router.set("still here", for: plain)
        #expect(try await router.get(plain) == "still here")
    }

    @Test("ValueSealer asks a provider once for many concurrent callers, and again after a failure")
    func singleFlightKeyMaterial() async throws {
        actor CountingProvider: KeyMaterialProviding {
            var calls = 0
            var failNext = true
            func keyMaterial(for source: KeyMaterialSource) async throws -> KeyMaterial {
                calls += 1
                try await Task.sleep(for: .milliseconds(20))
                if failNext {
                    failNext = false
                    throw SecretsError.locked("the provider's store")
                }
                return .passphrase("p")
            }
        }
        let provider = CountingProvider()
        let helper = ValueSealer(providers: [.default: provider])
        await #expect(throws: SecretsError.locked("the provider's store")) {
            _ = try await helper.keyMaterial(for: .default)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 { group.addTask { _ = try await helper.keyMaterial(for: .default) } }
            try await group.waitForAll()
        }
        #expect(await provider.calls == 2)
    }
}
