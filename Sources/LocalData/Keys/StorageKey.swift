import Foundation

/// Everything about one persisted value: its name, type, domain, protection, serializer, owner and purpose, where
/// it belongs and whether it syncs.
///
/// Apps declare their keys in ``StorageKeys``, the way `Notification.Name`s are declared, either as values of
/// ``StorageKeys/Key`` or as types of their own:
///
/// ```swift
/// extension StorageKeys {
///     static let apiToken = Key<String>(
///         "apiToken", domain: .keychain, security: .keychainDefault, owner: "Networking",
///         description: "The API token the app signs requests with.")
///
///     struct Onboarding: StorageKey {
///         typealias Value = Bool
///         let name = "onboarding.done"
///         let domain = StorageDomain.userDefaults
///         let owner = "Onboarding"
///         let description = "Whether the user finished onboarding."
///     }
/// }
/// try await StorageRouter.shared.set("t0k3n", for: StorageKeys.apiToken)
/// ```
///
/// Only ``name``, ``domain``, ``owner`` and ``description`` must be given; the rest default to no extra
/// protection, JSON (for `Codable` values), every platform and no sync.
public protocol StorageKey<Value>: Sendable {
    /// The type of the stored value.
    associatedtype Value: Sendable

    /// The key's unique name: letters, digits, `.`, `_`, `-`, `@` and `/`-separated segments, like a secret's
    /// path (``Secrets/SecretPath``).
    var name: String { get }
    /// Where the value is persisted.
    var domain: StorageDomain { get }
    /// How the value is protected at rest.
    var security: SecurityPolicy { get }
    /// How the value becomes bytes.
    var serializer: Serializer<Value> { get }
    /// Which registered provider supplies the key material for an ``SecurityPolicy/encrypted(algorithm:keyDerivation:)``
    /// policy or an ``StorageDomain/encryptedFileSystem(directory:)`` domain.
    var keyMaterialSource: KeyMaterialSource { get }
    /// The team or module responsible for the value.
    var owner: String { get }
    /// What the value is for (required: the catalog rejects keys without one).
    var description: String { get }
    /// Where the value belongs.
    var availability: PlatformAvailability { get }
    /// Whether the value syncs to the paired watch.
    var syncPolicy: SyncPolicy { get }
}

extension StorageKey {
    /// No protection beyond the domain's own.
    public var security: SecurityPolicy { .none }
    /// The router's default key material.
    public var keyMaterialSource: KeyMaterialSource { .default }
    /// Every platform.
    public var availability: PlatformAvailability { .all }
    /// No sync.
    public var syncPolicy: SyncPolicy { .never }

    /// The key's metadata, for catalogs and catalog reports.
    public var descriptor: StorageKeyDescriptor {
        StorageKeyDescriptor(
            name: name, valueType: "\(Value.self)", domain: domain, security: security, serializer: serializer.name,
            keyMaterialSource: keyMaterialSource, owner: owner, description: description,
            availability: availability, syncPolicy: syncPolicy)
    }
}

extension StorageKey where Value: Codable {
    /// JSON.
    public var serializer: Serializer<Value> { .json }
}
