import Foundation

/// The namespace apps declare their keys in, the way they extend `Notification.Name`.
///
/// ```swift
/// extension StorageKeys {
///     static let lastSync = Key<Date>(
///         "sync.last", domain: .userDefaults, owner: "Sync", description: "When the last sync finished.")
/// }
/// ```
public enum StorageKeys {
    /// A key declared as a value: every property given at the declaration.
    public struct Key<Value: Sendable>: StorageKey {
        /// The key's unique name.
        public let name: String
        /// Where the value is persisted.
        public let domain: StorageDomain
        /// How the value is protected at rest.
        public let security: SecurityPolicy
        /// How the value becomes bytes.
        public let serializer: Serializer<Value>
        /// Which provider supplies key material for encryption.
        public let keyMaterialSource: KeyMaterialSource
        /// The team or module responsible for the value.
        public let owner: String
        /// What the value is for.
        public let description: String
        /// Where the value belongs.
        public let availability: PlatformAvailability
        /// Whether the value syncs to the paired watch.
        public let syncPolicy: SyncPolicy

        /// Creates a key.
        public init(
            _ name: String, domain: StorageDomain, security: SecurityPolicy = .none, serializer: Serializer<Value>,
            keyMaterialSource: KeyMaterialSource = .default, owner: String, description: String,
            availability: PlatformAvailability = .all, syncPolicy: SyncPolicy = .never
        ) {
            self.name = name
            self.domain = domain
            self.security = security
            self.serializer = serializer
            self.keyMaterialSource = keyMaterialSource
            self.owner = owner
            self.description = description
            self.availability = availability
            self.syncPolicy = syncPolicy
        }
    }
}

extension StorageKeys.Key where Value: Codable {
    /// Creates a key whose values are stored as JSON.
    public init(
        _ name: String, domain: StorageDomain, security: SecurityPolicy = .none,
        keyMaterialSource: KeyMaterialSource = .default, owner: String, description: String,
        availability: PlatformAvailability = .all, syncPolicy: SyncPolicy = .never
    ) {
        self.init(
            name, domain: domain, security: security, serializer: .json, keyMaterialSource: keyMaterialSource,
            owner: owner, description: description, availability: availability, syncPolicy: syncPolicy)
    }
}
