import CofferTestSupport
import Foundation
import LocalData
import Secrets
import SecretsKeychain
import Testing

@Suite("StorageRouter: every domain round-trips every serializer")
struct StorageRouterDomainTests {
    static let preferences = Preferences(theme: "dark", fontSize: 14, tags: ["a", "b/c"])

    @Test("set, get, exists and remove in each domain with each serializer", arguments: DomainCase.allCases)
    func roundTrip(_ domainCase: DomainCase) async throws {
        let fixture = try RouterFixture()
        defer { try? fixture.cleanUp() }
        let domain = domainCase.domain(appGroup: fixture.appGroup)
        let router = fixture.router

        for serializer in [Serializer<Preferences>.json, .propertyList] {
            let key = testKey(domain, serializer: serializer)
            #expect(try await router.get(key) == nil)
            #expect(try await router.exists(key) == false)
            try await router.set(Self.preferences, for: key)
            #expect(try await router.get(key) == Self.preferences, "\(serializer.name)")
            #expect(try await router.exists(key))
            try await router.remove(key)
            #expect(try await router.get(key) == nil)
            try await router.remove(key)
        }
        let raw = testKey(domain, serializer: Serializer<Data>.data)
        let bytes = Data((0...255).map(UInt8.init))
        try await router.set(bytes, for: raw)
        #expect(try await router.get(raw) == bytes)
        try await router.remove(raw)

        let custom = testKey(domain, serializer: uppercaseSerializer)
        try await router.set("quiet", for: custom)
        #expect(try await router.get(custom) == "QUIET")
        try await router.remove(custom)

        let scalar = testKey(domain, serializer: Serializer<Int>.propertyList)
        try await router.set(-7, for: scalar)
        #expect(try await router.get(scalar) == -7)
        try await router.remove(scalar)
    }

    @Test("a value survives a new router over the same places (a relaunch)", arguments: DomainCase.allCases)
    func persistsAcrossRouters(_ domainCase: DomainCase) async throws {
        let fixture = try RouterFixture()
        defer { try? fixture.cleanUp() }
        let key = testKey(domainCase.domain(appGroup: fixture.appGroup), serializer: Serializer<Preferences>.json)
        try await fixture.router.set(Self.preferences, for: key)
        let relaunched = StorageRouter(configuration: fixture.router.configuration)
        #expect(try await relaunched.get(key) == Self.preferences)
        try await relaunched.remove(key)
    }

    @Test("keychain keys work over the real Secret Service", .enabled(if: SecretServiceEnvironment.isEnabled))
    func secretService() async throws {
        let fixture = try RouterFixture(secretService: true)
        defer { try? fixture.cleanUp() }
        let key = testKey(.keychain, security: .keychainDefault, serializer: Serializer<Preferences>.json)
        try await fixture.router.set(Self.preferences, for: key)
        #expect(try await fixture.router.get(key) == Self.preferences)
        let stored = try fixture.keychainBackend.read(
            SecretQuery<Data>(service: fixture.applicationIdentifier, account: key.name))
        #expect(stored == (try Serializer<Preferences>.json.encode(Self.preferences)))

        let encryptedFile = testKey(.encryptedFileSystem(directory: .documents), serializer: Serializer<String>.json)
        try await fixture.router.set("kept under a key in the keyring", for: encryptedFile)
        #expect(try await fixture.router.get(encryptedFile) == "kept under a key in the keyring")
        let keyAccounts = try fixture.keychainBackend.listAccounts(
            service: fixture.applicationIdentifier, accessGroup: nil)
        #expect(keyAccounts.contains("localdata.keys/default"))
    }

    @Test("the documented XDG locations hold Linux's files")
    func xdgLocations() throws {
        let locations = StorageLocations(
            applicationIdentifier: "app", environment: ["HOME": "/home/u", "XDG_CACHE_HOME": "/var/cache/u"])
        #if !canImport(Darwin)
            #expect(locations.url(for: .documents).path == "/home/u/.local/share/app")
            #expect(locations.url(for: .caches).path == "/var/cache/u/app")
            #expect(
                try locations.url(for: .caches, inAppGroup: "group.x").path
                    == "/home/u/.local/share/app-groups/group.x/Library/Caches")
        #endif
        for bad in ["..", "a/b", "", "x\u{7}"] {
            #expect(throws: SecretsError.self) { try locations.url(for: .documents, inAppGroup: bad) }
        }
        #expect(throws: SecretsError.self) {
            try locations.url(for: .custom(URL(filePath: "../../etc", relativeTo: nil)), inAppGroup: "group.x")
        }
    }

    @Test("bad key names are refused before anything is stored", arguments: ["../escape", "a//b", "", "white space"])
    func badNames(_ name: String) async throws {
        let fixture = try RouterFixture()
        let key = testKey(name, .fileSystem(directory: .documents), serializer: Serializer<String>.json)
        await #expect {
            try await fixture.router.set("x", for: key)
        } throws: { error in
            guard case StorageError.store(_, .invalidIdentifier) = error else { return false }
            return true
        }
        #expect(try fixture.filesOnDisk().isEmpty)
    }

    @Test("bytes that are not a value of the key's type give a typed error, and stay stored")
    func wrongType() async throws {
        let fixture = try RouterFixture()
        let domain = StorageDomain.fileSystem(directory: .documents)
        let text = testKey("shared", domain, serializer: Serializer<String>.json)
        let number = testKey("shared", domain, serializer: Serializer<Int>.json)
        try await fixture.router.set("not a number", for: text)
        await #expect(
            throws: StorageError.deserializationFailed(
                key: "shared", valueType: "Int", reason: "Expected to decode Int but found a string instead.")
        ) {
            _ = try await fixture.router.get(number)
        }
        #expect(try await fixture.router.get(text) == "not a number")
    }

    @Test(
        "a locked keychain: reads and writes throw a typed error, nothing is lost (also on a shared store)",
        arguments: [false, true])
    func lockedKeychain(sharedStore: Bool) async throws {
        let fixture = try RouterFixture(sharedStore: sharedStore)
        defer { try? fixture.cleanUp() }
        let key = testKey(.keychain, serializer: Serializer<String>.json)
        try await fixture.router.set("before", for: key)
        fixture.keychain.setLocked(true)
        await #expect {
            _ = try await fixture.router.get(key)
        } throws: { error in
            guard case StorageError.store(key.name, .locked) = error else { return false }
            return true
        }
        await #expect {
            try await fixture.router.set("after", for: key)
        } throws: { error in
            guard case StorageError.store(key.name, .locked) = error else { return false }
            return true
        }
        fixture.keychain.setLocked(false)
        #expect(try await fixture.router.get(key) == "before")
    }

    @Test("a key meant for the watch is unavailable on a phone, and the other way round")
    func platformAvailability() async throws {
        let phone = try RouterFixture(platform: .phone)
        let watchKey = testKey(
            .fileSystem(directory: .documents), serializer: Serializer<Int>.json, availability: .watchOnly)
        await #expect(throws: StorageError.unavailableOnPlatform(key: watchKey.name, availability: .watchOnly)) {
            try await phone.router.set(1, for: watchKey)
        }
        let watch = try RouterFixture(platform: .watch)
        try await watch.router.set(1, for: watchKey)
        let phoneKey = testKey(
            .fileSystem(directory: .documents), serializer: Serializer<Int>.json, availability: .phoneOnly)
        await #expect(throws: StorageError.unavailableOnPlatform(key: phoneKey.name, availability: .phoneOnly)) {
            _ = try await watch.router.get(phoneKey)
        }
    }

    @Test("oversized values are refused with the limit, per domain")
    func oversized() async throws {
        let fixture = try RouterFixture()
        defer { try? fixture.cleanUp() }
        let big = Data(count: 600 * 1024)
        let defaultsKey = testKey(
            .appGroupUserDefaults(identifier: fixture.appGroup), serializer: Serializer<Data>.data)
        await #expect {
            try await fixture.router.set(big, for: defaultsKey)
        } throws: { error in
            guard case StorageError.store(_, .tooLarge(byteCount: 614_400, limit: 524_288)) = error else {
                return false
            }
            return true
        }
        #expect(try await fixture.router.get(defaultsKey) == nil)
    }
}
