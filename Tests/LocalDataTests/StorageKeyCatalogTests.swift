import CofferTestSupport
import Foundation
import LocalData
import Secrets
import Testing

/// The catalog the tests register: three well-formed keys.
struct TestCatalog: StorageKeyCatalog {
    static let token = testKey(
        "auth/token", .keychain, security: .keychainDefault, serializer: Serializer<String>.json)
    static let theme = testKey(
        "settings/theme", .userDefaults, serializer: Serializer<String>.json, availability: .phoneWithWatchSync,
        sync: .automaticSmall)
    static let notes = testKey(
        "notes", .encryptedFileSystem(directory: .documents),
        security: .encrypted(algorithm: .chaCha20Poly1305, keyDerivation: .hkdf), serializer: Serializer<[String]>.json)

    var allKeys: [AnyStorageKey] { [AnyStorageKey(Self.token), AnyStorageKey(Self.theme), AnyStorageKey(Self.notes)] }
}

/// A catalog made of the descriptors a test gives.
struct ListedCatalog: StorageKeyCatalog {
    let allKeys: [AnyStorageKey]
}

@Suite("StorageKeyCatalog: validation, unregistered keys, audit reports")
struct StorageKeyCatalogTests {
    func descriptor(
        _ name: String, description: String = "What it is for.", domain: StorageDomain = .userDefaults,
        security: SecurityPolicy = .none, availability: PlatformAvailability = .all, sync: SyncPolicy = .never
    ) -> AnyStorageKey {
        AnyStorageKey(
            descriptor: StorageKeyDescriptor(
                name: name, valueType: "String", domain: domain, security: security, serializer: "json",
                owner: "Tests", description: description, availability: availability, syncPolicy: sync))
    }

    @Test("a well-formed catalog validates")
    func valid() throws {
        #expect(TestCatalog().validationErrors.isEmpty)
        try TestCatalog().validate()
    }

    @Test("every problem is found at once: duplicates, missing descriptions, bad names, inconsistent metadata")
    func problems() {
        let catalog = ListedCatalog(allKeys: [
            descriptor("a"), descriptor("a"), descriptor("a"),
            descriptor("b", description: "  \n"),
            descriptor("../c"),
            descriptor("d", domain: .fileSystem(directory: .caches), security: .keychainDefault),
            descriptor("e", availability: .phoneOnly, sync: .manual),
            descriptor("f", security: .encrypted(algorithm: .aes256GCM, keyDerivation: .pbkdf2(iterations: 0))),
            descriptor("g", domain: .appGroupUserDefaults(identifier: "../group")),
            descriptor("h", security: .encrypted(algorithm: .aes256GCM, keyDerivation: .pbkdf2(iterations: 99_999))),
        ])
        let problems = catalog.validationErrors
        #expect(problems.count == 8)
        #expect(problems.contains(.duplicateKey("a")))
        #expect(problems.contains(.missingDescription("b")))
        let named = problems.map(\.description)
        for name in ["'../c'", "'d'", "'e'", "'f'", "'g'", "'h'"] {
            #expect(named.contains { $0.contains(name) }, "\(name)")
        }
        #expect(throws: StorageError.invalidCatalog(problems)) { try catalog.validate() }
    }

    @Test("a router refuses an invalid catalog, and a second catalog that redefines a key")
    func registration() async throws {
        let fixture = try RouterFixture()
        await #expect(throws: StorageError.self) {
            try await fixture.router.register(ListedCatalog(allKeys: [descriptor("x", description: "")]))
        }
        try await fixture.router.register(TestCatalog())
        try await fixture.router.register(TestCatalog())
        let redefined = ListedCatalog(allKeys: [descriptor("notes")])
        await #expect(throws: StorageError.invalidCatalog([.duplicateKey("notes")])) {
            try await fixture.router.register(redefined)
        }
        #expect(await fixture.router.registeredDescriptors.map(\.name) == ["auth/token", "notes", "settings/theme"])
    }

    @Test("with a catalog registered, an unregistered key is rejected (or reported once) per the policy")
    func unregistered() async throws {
        let stray = testKey("stray", .fileSystem(directory: .caches), serializer: Serializer<Int>.json)
        let strict = try RouterFixture(unregisteredKeyPolicy: .reject)
        try await strict.router.set(1, for: stray)
        try await strict.router.register(TestCatalog())
        await #expect(throws: StorageError.unregisteredKey("stray")) { try await strict.router.set(2, for: stray) }
        try await strict.router.set("dark", for: TestCatalog.theme)

        let reported = Recorder()
        let lenient = try RouterFixture(unregisteredKeyPolicy: .report { reported.append($0.name) })
        try await lenient.router.register(TestCatalog())
        try await lenient.router.set(1, for: stray)
        _ = try await lenient.router.get(stray)
        let changed = testKey("settings/theme", .userDefaults, serializer: Serializer<Int>.json)
        _ = try await lenient.router.exists(changed)
        #expect(reported.values == ["stray", "settings/theme"])
    }

    @Test("the audit report lists every key in text, JSON and Markdown; the JSON reads back as a catalog")
    func audit() throws {
        let report = TestCatalog().catalogReport
        let text = report.rendered(as: .text)
        #expect(text.hasPrefix("3 storage keys\n"))
        #expect(text.contains("auth/token (String)"))
        #expect(text.contains("encrypted(chacha20-poly1305, hkdf, key: default)"))
        #expect(text.contains("keychain(whenUnlocked)"))
        #expect(text.contains("phoneWithWatchSync"))

        let markdown = report.rendered(as: .markdown).split(separator: "\n")
        #expect(markdown.count == 5)
        #expect(
            markdown[0] == "| Key | Type | Domain | Security | Serializer | Owner | Availability | Sync | Description |"
        )
        #expect(markdown[2].hasPrefix("| auth/token | String | keychain | keychain(whenUnlocked) | json | Tests |"))

        let json = Data(report.rendered(as: .json).utf8)
        let catalog = try DescriptorCatalog(json: json)
        #expect(catalog.keys == report.keys)
        #expect(try DescriptorCatalog(json: JSONEncoder().encode(report.keys)).keys == report.keys)
        #expect(throws: StorageError.self) { try DescriptorCatalog(json: Data("{\"keys\": 3}".utf8)) }
    }
}
