import Foundation
import LocalData

/// The domains a key can be in, named for test arguments.
enum DomainCase: String, CaseIterable, CustomStringConvertible {
    case userDefaults, appGroupUserDefaults, keychain, fileSystem, encryptedFileSystem, appGroupFileSystem

    func domain(appGroup: String) -> StorageDomain {
        switch self {
        case .userDefaults: return .userDefaults
        case .appGroupUserDefaults: return .appGroupUserDefaults(identifier: appGroup)
        case .keychain: return .keychain
        case .fileSystem: return .fileSystem(directory: .documents)
        case .encryptedFileSystem: return .encryptedFileSystem(directory: .caches)
        case .appGroupFileSystem: return .appGroupFileSystem(identifier: appGroup, directory: .documents)
        }
    }

    var description: String { rawValue }
}

/// A key for tests with a unique name.
func testKey<Value: Sendable>(
    _ domain: StorageDomain, security: SecurityPolicy = .none, serializer: Serializer<Value>,
    source: KeyMaterialSource = .default, availability: PlatformAvailability = .all, sync: SyncPolicy = .never
) -> StorageKeys.Key<Value> {
    testKey(
        "k-\(UUID().uuidString.prefix(8))", domain, security: security, serializer: serializer, source: source,
        availability: availability, sync: sync)
}

/// A key for tests, every property given.
func testKey<Value: Sendable>(
    _ name: String, _ domain: StorageDomain, security: SecurityPolicy = .none,
    serializer: Serializer<Value>, source: KeyMaterialSource = .default,
    availability: PlatformAvailability = .all, sync: SyncPolicy = .never
) -> StorageKeys.Key<Value> {
    StorageKeys.Key(
        name, domain: domain, security: security, serializer: serializer, keyMaterialSource: source, owner: "Tests",
        description: "A value written by a test.", availability: availability, syncPolicy: sync)
}

/// Upper-cases text on the way in: a custom serializer that is visibly applied.
let uppercaseSerializer = Serializer<String>(
    name: "uppercase-utf8", encode: { Data($0.uppercased().utf8) },
    decode: { String(decoding: $0, as: UTF8.self) })
