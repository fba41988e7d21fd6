import CofferTestSupport
import Foundation
import LocalData
import Secrets
import Testing

@Suite("Migrations from legacy keys, and key rotation of encrypted files")
struct StorageMigrationTests {
    /// A token an old version wrote straight into UserDefaults as a String.
    func legacyToken(_ fixture: RouterFixture) -> StorageKeys.Key<String> {
        testKey("token", .appGroupUserDefaults(identifier: fixture.appGroup), serializer: .propertyList)
    }

    let token = testKey("auth/token", .keychain, security: .keychainDefault, serializer: Serializer<String>.json)

    @Test("a token left in UserDefaults moves to the keychain on first read, and is gone from UserDefaults")
    func onFirstRead() async throws {
        let fixture = try RouterFixture()
        defer { try? fixture.cleanUp() }
        let defaults = try #require(UserDefaults(suiteName: fixture.appGroup))
        defaults.set("legacy-token-value", forKey: "token")
        try await fixture.router.register(StorageMigration(from: legacyToken(fixture), to: token))

        #expect(try await fixture.router.get(token) == "legacy-token-value")
        #expect(defaults.object(forKey: "token") == nil)
        #expect(
            try fixture.keychainBackend.read(
                SecretQuery<Data>(service: fixture.applicationIdentifier, account: "auth/token"))
                == Data("\"legacy-token-value\"".utf8))
        #expect(
            try await fixture.router.migrate(StorageMigration(from: legacyToken(fixture), to: token))
                == .alreadyMigrated)
    }

    @Test("a copy left by an interrupted move is cleared, and the moved value wins")
    func interruptedMove() async throws {
        let fixture = try RouterFixture()
        defer { try? fixture.cleanUp() }
        try await fixture.router.set("new", for: token)
        try #require(UserDefaults(suiteName: fixture.appGroup)).set("old", forKey: "token")
        let migration = StorageMigration(from: legacyToken(fixture), to: token)
        #expect(try await fixture.router.migrate(migration) == .cleanedUp)
        #expect(try await fixture.router.get(token) == "new")
        #expect(try await fixture.router.migrate(migration) == .alreadyMigrated)
    }

    @Test("writes and removals wait for the pending migration, so a legacy value never overwrites a new one")
    func writesWaitForMigration() async throws {
        let fixture = try RouterFixture()
        defer { try? fixture.cleanUp() }
        try #require(UserDefaults(suiteName: fixture.appGroup)).set("old", forKey: "token")
        try await fixture.router.register(StorageMigration(from: legacyToken(fixture), to: token))
        try await fixture.router.set("fresh", for: token)
        #expect(try await fixture.router.get(token) == "fresh")

        let second = try RouterFixture()
        defer { try? second.cleanUp() }
        try #require(UserDefaults(suiteName: second.appGroup)).set("old", forKey: "token")
        try await second.router.register(StorageMigration(from: legacyToken(second), to: token))
        try await second.router.remove(token)
        #expect(try await second.router.get(token) == nil)
    }

    @Test("a token kept in the clear is encrypted where it is, in one write, when its key becomes encrypted")
    func upgradeInPlace() async throws {
        let fixture = try RouterFixture()
        defer { try? fixture.cleanUp() }
        let defaults = try #require(UserDefaults(suiteName: fixture.appGroup))
        defaults.set("clear-token", forKey: "token")
        let encrypted = testKey(
            "token", .appGroupUserDefaults(identifier: fixture.appGroup),
            security: .encrypted(algorithm: .aes256GCM, keyDerivation: .hkdf), serializer: Serializer<String>.json)
        let migration = StorageMigration(from: legacyToken(fixture), to: encrypted)
        try await fixture.router.register(migration)

        #expect(try await fixture.router.get(encrypted) == "clear-token")
        let stored = try #require(defaults.data(forKey: "token"))
        #expect(stored.range(of: Data("clear-token".utf8)) == nil)
        #expect(try await fixture.router.migrate(migration) == .alreadyMigrated)
        #expect(try await StorageRouter(configuration: fixture.router.configuration).get(encrypted) == "clear-token")
        await #expect(throws: StorageError.self) {
            try await fixture.router.register(StorageMigration(from: encrypted, to: encrypted))
        }

        defaults.set(Data("neither form".utf8), forKey: "token")
        await #expect {
            try await fixture.router.migrate(migration)
        } throws: { error in
            guard case StorageError.store("token", .corruptData) = error else { return false }
            return true
        }
    }

    @Test("a transform converts the legacy type; bulk migration reports each key and its progress")
    func bulkWithTransform() async throws {
        let fixture = try RouterFixture()
        defer { try? fixture.cleanUp() }
        let defaults = try #require(UserDefaults(suiteName: fixture.appGroup))
        let domain = StorageDomain.appGroupUserDefaults(identifier: fixture.appGroup)
        defaults.set(42, forKey: "fontSize")
        defaults.set("dark", forKey: "theme")
        let legacySize = testKey("fontSize", domain, serializer: Serializer<Int>.propertyList)
        let legacyTheme = testKey("theme", domain, serializer: Serializer<String>.propertyList)
        let size = testKey("settings/fontSize", .fileSystem(directory: .documents), serializer: Serializer<Double>.json)
        let theme = testKey("settings/theme", .fileSystem(directory: .documents), serializer: Serializer<String>.json)
        let absent = testKey("settings/absent", .fileSystem(directory: .documents), serializer: Serializer<String>.json)
        try await fixture.router.register(StorageMigration(from: legacySize, to: size) { Double($0) })
        try await fixture.router.register(StorageMigration(from: legacyTheme, to: theme))
        try await fixture.router.register(
            StorageMigration(from: testKey("never-written", domain, serializer: Serializer<String>.json), to: absent))
        await #expect(throws: StorageError.self) {
            try await fixture.router.register(StorageMigration(from: legacyTheme, to: theme))
        }

        let steps = Recorder()
        let report = try await fixture.router.migrateAll { steps.append("\($0.completed)/\($0.total)") }
        #expect(steps.values == ["1/3", "2/3", "3/3"])
        #expect(
            report.outcomes == [
                "settings/fontSize": .migrated, "settings/theme": .migrated, "settings/absent": .nothingToMigrate,
            ])
        #expect(try await fixture.router.get(size) == 42)
        #expect(defaults.object(forKey: "fontSize") == nil)
    }

    @Test("a legacy value that does not decode stays where it is, with a typed error")
    func undecodableLegacy() async throws {
        let fixture = try RouterFixture()
        defer { try? fixture.cleanUp() }
        let defaults = try #require(UserDefaults(suiteName: fixture.appGroup))
        defaults.set(["not": "a string"], forKey: "token")
        await #expect {
            try await fixture.router.migrate(StorageMigration(from: legacyToken(fixture), to: token))
        } throws: { error in
            guard case StorageError.deserializationFailed("token", "String", _) = error else { return false }
            return true
        }
        #expect(defaults.object(forKey: "token") != nil)
        #expect(try await fixture.router.get(token) == nil)
    }

    @Test(
        "rotate re-encrypts with progress; new key material re-wraps the store; a re-key swaps its master key"
    )
    func rotation() async throws {
        let source = KeyMaterialSource("passphrase")
        let fixture = try RouterFixture(keyMaterialProviders: [source: FixedKeyMaterialProvider(.passphrase("first"))])
        let domain = StorageDomain.encryptedFileSystem(directory: .documents)
        let policy = SecurityPolicy.encrypted(algorithm: .aes256GCM, keyDerivation: .pbkdf2(iterations: 100_000))
        let keys = (0..<20).map {
            testKey("notes/\($0)", domain, security: policy, serializer: Serializer<Int>.json, source: source)
        }
        for (index, key) in keys.enumerated() { try await fixture.router.set(index, for: key) }
        let before = try fixture.filesOnDisk().filter { $0.path.contains("/items/") }.map(\.bytes)

        let steps = Recorder()
        let rotated = try await fixture.router.rotateKey(for: keys[0], algorithm: .chaCha20Poly1305) {
            steps.append("\($0.completed)/\($0.total)")
        }
        #expect(rotated.resealed == 20 && rotated.quarantined.isEmpty)
        #expect(steps.values.last == "20/20")
        let after = try fixture.filesOnDisk().filter { $0.path.contains("/items/") }.map(\.bytes)
        #expect(Set(before).isDisjoint(with: Set(after)))
        for (index, key) in keys.enumerated() { #expect(try await fixture.router.get(key) == index) }

        try await fixture.router.changeKeyMaterial(for: keys[0], to: .passphrase("second"))
        var configuration = fixture.router.configuration
        configuration.keyMaterialProviders[source] = FixedKeyMaterialProvider(.passphrase("second"))
        let reopened = StorageRouter(configuration: configuration)
        #expect(try await reopened.get(keys[19]) == 19)
        await #expect {
            _ = try await StorageRouter(configuration: fixture.router.configuration).get(keys[1])
        } throws: { error in
            guard case StorageError.store(_, .wrongPassphrase) = error else { return false }
            return true
        }
        let rekeyed = try await reopened.rekey(for: keys[0], to: .passphrase("third"))
        #expect(rekeyed.resealed == 20)
        configuration.keyMaterialProviders[source] = FixedKeyMaterialProvider(.passphrase("third"))
        #expect(try await StorageRouter(configuration: configuration).get(keys[7]) == 7)
        let plain = testKey("plain", .fileSystem(directory: .documents), serializer: Serializer<Int>.json)
        await #expect(throws: StorageError.self) { try await fixture.router.rotateKey(for: plain) }
    }
}

@Suite("StorageRouter under concurrent use")
struct StorageRouterConcurrencyTests {
    @Test("many tasks writing and reading their own keys and one shared key in every local domain")
    func manyTasks() async throws {
        let fixture = try RouterFixture()
        defer { try? fixture.cleanUp() }
        let router = fixture.router
        let domains: [StorageDomain] = [
            .appGroupUserDefaults(identifier: fixture.appGroup), .keychain, .fileSystem(directory: .documents),
            .encryptedFileSystem(directory: .caches),
        ]
        let shared = domains.map { testKey("shared", $0, serializer: Serializer<Int>.json) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<64 {
                group.addTask {
                    let domain = domains[task % domains.count]
                    let own = testKey("task/\(task)", domain, serializer: Serializer<[Int]>.json)
                    for round in 0..<10 {
                        try await router.set([task, round], for: own)
                        #expect(try await router.get(own) == [task, round])
                        try await router.set(task, for: shared[task % domains.count])
                    }
                }
            }
            try await group.waitForAll()
        }
        for key in shared {
            let value = try #require(try await router.get(key))
            #expect(domains.indices.contains(value % domains.count))
        }
        #expect(
            try await router.files.list(
                in: fixture.directory.url.appending(path: "data/\(fixture.applicationIdentifier)/LocalData/files")
            ).count == 17)
    }
}
