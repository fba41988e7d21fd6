import CofferTestSupport
import Foundation
import LocalData
import Secrets
import SecretsKeychain
import Testing

@Suite(
    "StorageRouter's keychain domain on a shared SecretsStore works as before and shares its changes",
    .timeLimit(.minutes(1)))
struct KeychainStoreTests {
    @Test("keychain keys are set, read and removed through the shared store, at the key's name")
    func roundTrip() async throws {
        let fixture = try RouterFixture(sharedStore: true)
        defer { try? fixture.cleanUp() }
        let store = try #require(fixture.store)
        let key = testKey(.keychain, security: .keychainDefault, serializer: Serializer<String>.json)

        try await fixture.router.set("token", for: key)
        #expect(try await fixture.router.get(key) == "token")
        #expect(try await store.read(account: key.name) == Data(#""token""#.utf8))
        #expect(fixture.keychain.count == 1)
        #expect(try await fixture.router.keychain.accounts() == [key.name])

        try await fixture.router.remove(key)
        #expect(try await fixture.router.get(key) == nil)
        #expect(try await store.read(account: key.name) == nil)
    }

    @Test("a value saved or deleted through the store directly is what the router reads next")
    func storeWritesAreSeen() async throws {
        let fixture = try RouterFixture(sharedStore: true)
        defer { try? fixture.cleanUp() }
        let store = try #require(fixture.store)
        let key = testKey(.keychain, serializer: Serializer<String>.json)
        try await fixture.router.set("old", for: key)

        try await store.save(Data(#""refreshed""#.utf8), account: key.name)
        #expect(try await fixture.router.get(key) == "refreshed")
        #expect(try await store.delete(account: key.name))
        #expect(try await fixture.router.get(key) == nil)
    }

    @Test("the router's writes reach the store's change stream, by key name and without values")
    func routerWritesAreReported() async throws {
        let fixture = try RouterFixture(sharedStore: true)
        defer { try? fixture.cleanUp() }
        let store = try #require(fixture.store)
        var changes = store.changes().makeAsyncIterator()
        let key = testKey(.keychain, serializer: Serializer<String>.json)

        try await fixture.router.set("one", for: key)
        try await fixture.router.set("two", for: key)
        try await fixture.router.remove(key)

        #expect(await changes.next() == SecretsStoreChange(account: key.name, kind: .saved))
        #expect(await changes.next() == SecretsStoreChange(account: key.name, kind: .saved))
        #expect(await changes.next() == SecretsStoreChange(account: key.name, kind: .deleted))
    }

    @Test("a value over the inline limit still goes to the encrypted overflow file, with no copy in the store")
    func overflow() async throws {
        let fixture = try RouterFixture(maximumKeychainValueSize: 64, sharedStore: true)
        defer { try? fixture.cleanUp() }
        let store = try #require(fixture.store)
        let key = testKey(.keychain, serializer: Serializer<String>.json)
        let large = String(repeating: "x", count: 500)

        try await fixture.router.set("small", for: key)
        try await fixture.router.set(large, for: key)
        #expect(try await fixture.router.get(key) == large)
        #expect(try await store.read(account: key.name) == nil)
        #expect(try fixture.filesOnDisk().allSatisfy { !$0.bytes.contains(Data(large.utf8)) })

        try await fixture.router.set("small again", for: key)
        #expect(try await fixture.router.get(key) == "small again")
        #expect(try await fixture.router.keychain.accounts() == [key.name])
    }

    @Test("a key asking for another access policy than the store keeps is refused, and nothing is written")
    func policyMismatch() async throws {
        let fixture = try RouterFixture(sharedStore: true)
        defer { try? fixture.cleanUp() }
        let store = try #require(fixture.store)
        let key = testKey(
            .keychain, security: .keychain(accessibility: .whenUnlockedThisDeviceOnly, accessControl: .userPresence),
            serializer: Serializer<String>.json)

        await #expect {
            try await fixture.router.set("secret", for: key)
        } throws: { error in
            guard case StorageError.store(key.name, .unsupported) = error else { return false }
            return true
        }
        #expect(try await store.listAccounts().isEmpty)
    }

    @Test(
        "the store's own access policy is the one keys must ask for, seen through an audit too",
        arguments: [false, true])
    func storePolicy(audited: Bool) async throws {
        let fixture = try RouterFixture(
            sharedStore: true, storeAccessibility: .afterFirstUnlockThisDeviceOnly, audited: audited)
        defer { try? fixture.cleanUp() }
        let matching = testKey(
            .keychain, security: .keychain(accessibility: .afterFirstUnlockThisDeviceOnly, accessControl: nil),
            serializer: Serializer<String>.json)
        try await fixture.router.set("kept", for: matching)
        #expect(try await fixture.router.get(matching) == "kept")

        let other = testKey(.keychain, security: .keychainDefault, serializer: Serializer<String>.json)
        await #expect {
            try await fixture.router.set("refused", for: other)
        } throws: { error in
            guard case StorageError.store(other.name, .unsupported) = error else { return false }
            return true
        }
        #expect(try await fixture.store?.listAccounts() == [matching.name])
    }
}
