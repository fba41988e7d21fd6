import CofferTestSupport
import Crypto
import Foundation
import LocalData
import Secrets
import SecretsKeychain
import Testing

@Suite("Security policies are enforced")
struct StoragePolicyTests {
    static let secret = "correct horse battery staple, in plain text"
    static let passphraseSource = KeyMaterialSource("user-passphrase")
    static let providers: [KeyMaterialSource: any KeyMaterialProviding] = [
        passphraseSource: FixedKeyMaterialProvider(.passphrase("a passphrase")),
        KeyMaterialSource("wrong"): FixedKeyMaterialProvider(.key(SymmetricKey(size: .bits256))),
    ]

    static let policies: [SecurityPolicy] = [
        .encrypted(algorithm: .aes256GCM, keyDerivation: .hkdf),
        .encrypted(algorithm: .chaCha20Poly1305, keyDerivation: .pbkdf2(iterations: 100_000)),
    ]

    static func source(for policy: SecurityPolicy) -> KeyMaterialSource {
        if case .encrypted(_, .pbkdf2) = policy { return passphraseSource }
        return .default
    }

    @Test(
        "an encrypted value is unreadable on disk, in every domain, under both ciphers and derivations",
        arguments: [
            DomainCase.appGroupUserDefaults, .fileSystem, .encryptedFileSystem, .appGroupFileSystem, .keychain,
        ],
        [0, 1])
    func unreadableOnDisk(_ domainCase: DomainCase, policyIndex: Int) async throws {
        let fixture = try RouterFixture(keyMaterialProviders: Self.providers)
        defer { try? fixture.cleanUp() }
        let policy = Self.policies[policyIndex]
        let key = testKey(
            domainCase.domain(appGroup: fixture.appGroup), security: policy, serializer: Serializer<String>.json,
            source: Self.source(for: policy))
        try await fixture.router.set(Self.secret, for: key)
        #expect(try await fixture.router.get(key) == Self.secret)

        let needle = Data("battery staple".utf8)
        for (path, bytes) in try fixture.filesOnDisk() {
            #expect(bytes.range(of: needle) == nil, "plain text in \(path)")
        }
        let configHome = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? NSHomeDirectory() + "/.config"
        if let plist = FileManager.default.contents(atPath: "\(configHome)/\(fixture.appGroup).plist") {
            #expect(plist.range(of: needle) == nil, "plain text in the defaults")
        }
        if domainCase == .keychain {
            let item = try #require(
                try fixture.keychainBackend.read(
                    SecretQuery<Data>(service: fixture.applicationIdentifier, account: key.name)))
            #expect(item.range(of: needle) == nil)
        }
    }

    @Test(
        "a tampered encrypted value fails with a typed error and is not replaced",
        arguments: [DomainCase.appGroupUserDefaults, .encryptedFileSystem])
    func tampered(_ domainCase: DomainCase) async throws {
        let fixture = try RouterFixture(keyMaterialProviders: Self.providers)
        defer { try? fixture.cleanUp() }
        let policy = Self.policies[0]
        let key = testKey(
            domainCase.domain(appGroup: fixture.appGroup), security: policy, serializer: Serializer<String>.json)
        try await fixture.router.set(Self.secret, for: key)

        switch domainCase {
        case .appGroupUserDefaults:
            let defaults = try #require(UserDefaults(suiteName: fixture.appGroup))
            var sealed = try #require(defaults.data(forKey: key.name))
            sealed[sealed.count - 1] ^= 0x01
            defaults.set(sealed, forKey: key.name)
        default:
            let (path, bytes) = try #require(try fixture.filesOnDisk().first { $0.path.contains("/items/") })
            var changed = bytes
            changed[changed.count - 1] ^= 0x01
            try changed.write(to: URL(filePath: path))
        }
        await #expect {
            _ = try await fixture.router.get(key)
        } throws: { error in
            guard case StorageError.store(key.name, .authenticationFailed) = error else { return false }
            return !"\(error)".contains("battery")
        }
    }

    @Test("a value sealed under one key's name does not open under another's")
    func movedValue() async throws {
        let fixture = try RouterFixture()
        defer { try? fixture.cleanUp() }
        let domain = StorageDomain.appGroupUserDefaults(identifier: fixture.appGroup)
        let first = testKey("first", domain, security: Self.policies[0], serializer: Serializer<String>.json)
        let second = testKey("second", domain, security: Self.policies[0], serializer: Serializer<String>.json)
        try await fixture.router.set(Self.secret, for: first)
        let defaults = try #require(UserDefaults(suiteName: fixture.appGroup))
        defaults.set(defaults.data(forKey: "first"), forKey: "second")
        await #expect {
            _ = try await fixture.router.get(second)
        } throws: { error in
            guard case StorageError.store("second", .authenticationFailed) = error else { return false }
            return true
        }
    }

    @Test("truncated or foreign bytes where a sealed value belongs are corrupt data")
    func notAnEnvelope() async throws {
        let fixture = try RouterFixture()
        defer { try? fixture.cleanUp() }
        let key = testKey(
            .appGroupUserDefaults(identifier: fixture.appGroup), security: Self.policies[0],
            serializer: Serializer<String>.json)
        try #require(UserDefaults(suiteName: fixture.appGroup)).set(Data("\"plain\"".utf8), forKey: key.name)
        await #expect {
            _ = try await fixture.router.get(key)
        } throws: { error in
            guard case StorageError.store(_, .corruptData) = error else { return false }
            return true
        }
    }

    @Test("key material that does not suit the derivation, or is missing, is a typed error")
    func keyMaterialErrors() async throws {
        let fixture = try RouterFixture(keyMaterialProviders: Self.providers)
        let mismatched = testKey(
            .fileSystem(directory: .documents), security: .encrypted(algorithm: .aes256GCM, keyDerivation: .hkdf),
            serializer: Serializer<String>.json, source: Self.passphraseSource)
        await #expect(throws: StorageError.keyMaterialMismatch(source: Self.passphraseSource, keyDerivation: .hkdf)) {
            try await fixture.router.set("x", for: mismatched)
        }
        let missing = testKey(
            .encryptedFileSystem(directory: .documents), serializer: Serializer<String>.json,
            source: KeyMaterialSource("nobody"))
        await #expect(throws: StorageError.missingKeyMaterial(KeyMaterialSource("nobody"))) {
            try await fixture.router.set("x", for: missing)
        }
    }

    @Test("an encrypted file store opened with other key material is a typed error, and keeps its values")
    func wrongKeyMaterial() async throws {
        let fixture = try RouterFixture(keyMaterialProviders: Self.providers)
        let key = testKey(
            "notes", .encryptedFileSystem(directory: .documents), security: Self.policies[1],
            serializer: Serializer<String>.json, source: Self.passphraseSource)
        try await fixture.router.set(Self.secret, for: key)
        var configuration = fixture.router.configuration
        configuration.keyMaterialProviders[Self.passphraseSource] = FixedKeyMaterialProvider(.passphrase("wrong one"))
        await #expect {
            _ = try await StorageRouter(configuration: configuration).get(key)
        } throws: { error in
            guard case StorageError.store("notes", .wrongPassphrase) = error else { return false }
            return true
        }
        #expect(try await StorageRouter(configuration: fixture.router.configuration).get(key) == Self.secret)
    }

    @Test("a keychain policy outside the keychain domain is refused")
    func keychainPolicyOutsideKeychain() async throws {
        let fixture = try RouterFixture()
        let key = testKey(
            "misplaced", .fileSystem(directory: .documents), security: .keychainDefault,
            serializer: Serializer<String>.json)
        await #expect {
            try await fixture.router.set("x", for: key)
        } throws: { error in
            guard case StorageError.invalidConfiguration("misplaced", _) = error else { return false }
            return true
        }
        #expect(try fixture.filesOnDisk().isEmpty)
    }

    @Test("keychain accessibility and access control reach the key store")
    func keychainPolicy() async throws {
        let fixture = try RouterFixture()
        let key = testKey(
            .keychain,
            security: .keychain(accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet),
            serializer: Serializer<String>.json)
        try await fixture.router.set("guarded", for: key)
        #expect(try await fixture.router.get(key) == "guarded")
        fixture.keychain.reboot()
        await #expect {
            _ = try await fixture.router.get(key)
        } throws: { error in
            guard case StorageError.store(_, .locked) = error else { return false }
            return true
        }
    }

    @Test("a value too big for the keychain goes to an encrypted file keyed from the keychain, and comes back")
    func keychainOverflow() async throws {
        let fixture = try RouterFixture(maximumKeychainValueSize: 1024)
        let key = testKey("big", .keychain, serializer: Serializer<Data>.data)
        let big = Data((0..<5000).map { UInt8($0 % 251) })
        try await fixture.router.set(big, for: key)
        #expect(try await fixture.router.get(key) == big)
        let item = SecretQuery<Data>(service: fixture.applicationIdentifier, account: "big")
        #expect(try fixture.keychainBackend.read(item) == nil)
        #expect(
            try fixture.keychainBackend.read(
                SecretQuery<Data>(
                    service: fixture.applicationIdentifier, account: KeychainValueStore.overflowKeyAccount))?
                .count == 32)
        #expect(try fixture.filesOnDisk().allSatisfy { $0.bytes.range(of: big.prefix(64)) == nil })
        #expect(try await fixture.router.keychain.accounts() == ["big"])

        try await fixture.router.set(Data("small".utf8), for: key)
        #expect(try fixture.keychainBackend.read(item) == Data("small".utf8))
        #expect(try await fixture.router.get(key) == Data("small".utf8))
        try await fixture.router.set(big, for: key)
        try await fixture.router.remove(key)
        #expect(try await fixture.router.exists(key) == false)
        #expect(try await fixture.router.keychain.accounts().isEmpty)

        let guarded = testKey(
            "guarded", .keychain, security: .keychain(accessibility: .whenUnlocked, accessControl: .userPresence),
            serializer: Serializer<Data>.data)
        await #expect {
            try await fixture.router.set(big, for: guarded)
        } throws: { error in
            guard case StorageError.store("guarded", .tooLarge(5000, 1024)) = error else { return false }
            return true
        }
    }
}
