import Foundation
import LocalData
import Secrets
import Testing

struct Preferences: Codable, Equatable, Sendable {
    var theme: String
    var fontSize: Int
    var tags: [String]
}

extension StorageKeys {
    static let apiToken = Key<String>(
        "apiToken", domain: .keychain, security: .keychainDefault, owner: "Networking",
        description: "The API token requests are signed with.")

    /// A key declared as a type of its own, with only the four required properties.
    struct OnboardingDone: StorageKey {
        typealias Value = Bool
        let name = "onboarding.done"
        let domain = StorageDomain.userDefaults
        let owner = "Onboarding"
        let description = "Whether the user finished onboarding."
    }
}

@Suite("LocalData's models: keys, serializers, policies")
struct LocalDataModelTests {
    static let preferences = Preferences(theme: "dark", fontSize: 14, tags: ["a", "b/c"])

    @Test("JSON and property-list serializers round-trip a Codable value; JSON bytes are key-sorted")
    func codableSerializers() throws {
        for serializer in [Serializer<Preferences>.json, .propertyList] {
            #expect(
                try serializer.decode(serializer.encode(Self.preferences)) == Self.preferences, "\(serializer.name)")
        }
        #expect(
            try Serializer<Preferences>.json.encode(Self.preferences)
                == Data(#"{"fontSize":14,"tags":["a","b/c"],"theme":"dark"}"#.utf8))
    }

    @Test("scalars at the top level round-trip through both serializers", arguments: ["text", ""])
    func scalars(_ text: String) throws {
        for serializer in [Serializer<String>.json, .propertyList] {
            #expect(try serializer.decode(serializer.encode(text)) == text, "\(serializer.name)")
        }
        #expect(try Serializer<Int>.propertyList.decode(Serializer<Int>.propertyList.encode(-7)) == -7)
    }

    @Test("raw data passes through unchanged; a custom serializer is named in the key's descriptor")
    func dataAndCustom() throws {
        let bytes = Data([0, 255, 10])
        #expect(try Serializer<Data>.data.decode(Serializer<Data>.data.encode(bytes)) == bytes)
        let uppercase = Serializer<String>(
            name: "uppercase-utf8", encode: { Data($0.uppercased().utf8) },
            decode: { String(decoding: $0, as: UTF8.self) })
        let key = StorageKeys.Key(
            "shout", domain: .fileSystem(directory: .caches), serializer: uppercase, owner: "Tests",
            description: "A value stored in capitals.")
        #expect(try key.serializer.encode("hi") == Data("HI".utf8))
        #expect(key.descriptor.serializer == "uppercase-utf8")
    }

    @Test("keys declared in StorageKeys, as values or as types, describe themselves")
    func declaredKeys() {
        let described = StorageKeys.apiToken.descriptor
        #expect(described.name == "apiToken")
        #expect(described.valueType == "String")
        #expect(described.domain == .keychain)
        #expect(described.serializer == "json")
        #expect(described.owner == "Networking")
        #expect(described.availability == .all)
        #expect(described.syncPolicy == .never)
        #expect(described.security == .keychainDefault)
        #expect(AnyStorageKey(StorageKeys.apiToken).descriptor == described)
        let onboarding = StorageKeys.OnboardingDone().descriptor
        #expect(onboarding.valueType == "Bool")
        #expect(onboarding.security == .none)
        #expect(onboarding.serializer == "json")
        #expect(onboarding.keyMaterialSource == .default)
        #expect(onboarding.availability == .all)
        #expect(onboarding.syncPolicy == .never)
    }

    @Test("every keychain accessibility and access control maps to the credential store's policy")
    func keychainPolicies() {
        #expect(KeychainAccessibility.allCases.count == 7)
        #expect(KeychainAccessControl.allCases.count == 6)
        let policy = SecurityPolicy.keychain(
            accessibility: .afterFirstUnlockThisDeviceOnly, accessControl: .biometryAnyOrDevicePasscode)
        #expect(
            policy.accessPolicy
                == AccessPolicy(
                    accessibility: .afterFirstUnlockThisDeviceOnly, accessControl: [.biometryAny, .or, .devicePasscode])
        )
        #expect(SecurityPolicy.none.accessPolicy == nil)
        #expect(SecurityPolicy.encrypted(algorithm: .chaCha20Poly1305, keyDerivation: .hkdf).accessPolicy == nil)
    }

    @Test("descriptors and policies are Codable for JSON audit reports")
    func descriptorsAreCodable() throws {
        let descriptor = StorageKeys.Key<Preferences>(
            "prefs", domain: .encryptedFileSystem(directory: .custom(URL(fileURLWithPath: "/tmp/x"))),
            security: .encrypted(algorithm: .aes256GCM, keyDerivation: .pbkdf2(iterations: 600_000)), owner: "Settings",
            description: "The user's preferences.", availability: .phoneWithWatchSync, syncPolicy: .automaticSmall
        ).descriptor
        let data = try JSONEncoder().encode(descriptor)
        #expect(try JSONDecoder().decode(StorageKeyDescriptor.self, from: data) == descriptor)
    }

    @Test("AnyCodable keeps each JSON shape, integers apart from doubles")
    func anyCodable() throws {
        let json = Data(#"{"a":null,"b":true,"c":3,"d":2.5,"e":"x","f":[1,"y"],"g":{"h":false}}"#.utf8)
        let value = try JSONDecoder().decode(AnyCodable.self, from: json)
        #expect(
            value
                == .object([
                    "a": .null, "b": .bool(true), "c": .int(3), "d": .double(2.5), "e": .string("x"),
                    "f": .array([.int(1), .string("y")]), "g": .object(["h": .bool(false)]),
                ]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try JSONDecoder().decode(AnyCodable.self, from: encoder.encode(value)) == value)
    }

    @Test("errors say what to do and never carry a value")
    func errors() {
        let errors: [StorageError] = [
            .serializationFailed(key: "k", serializer: "json", reason: "r"),
            .deserializationFailed(key: "k", valueType: "Int", reason: "r"),
            .unavailableOnPlatform(key: "k", availability: .watchOnly), .unregisteredKey("k"), .duplicateKey("k"),
            .missingDescription("k"), .invalidConfiguration(key: "k", reason: "r"),
            .payloadTooLarge(key: "k", byteCount: 70_000, limit: 65_536), .store(key: "k", .locked("the keychain")),
            .syncFailed(key: "k", reason: "r"), .failed(key: "k", reason: "r"),
        ]
        #expect(Set(errors.map(\.description)).count == errors.count)
        #expect(errors.allSatisfy { $0.description.contains("'k'") })
    }
}
