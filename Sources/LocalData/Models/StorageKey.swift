import Foundation

/// Everything about one persisted value: its name, type, domain, protection, serializer, owner and purpose, where
/// it belongs and whether it syncs.
///
/// Declare keys the way `Notification.Name`s are declared, as static members that call sites reach with a
/// leading dot:
///
/// ```swift
/// extension StorageKey where Value == String {
///     static var apiToken: StorageKey {
///         StorageKey("apiToken", domain: .keychain, security: .keychainDefault, owner: "Networking",
///                    description: "The API token the app signs requests with.")
///     }
/// }
/// try await StorageRouter.shared.set("t0k3n", for: .apiToken)
/// ```
public struct StorageKey<Value>: Sendable {
    /// The key's unique name.
    public let name: String
    /// Where the value is persisted.
    public let domain: StorageDomain
    /// How the value is protected at rest.
    public let security: SecurityPolicy
    /// How the value becomes bytes.
    public let serializer: Serializer<Value>
    /// The team or module responsible for the value.
    public let owner: String
    /// What the value is for (required: the catalog rejects keys without one).
    public let description: String
    /// Where the value belongs.
    public let availability: PlatformAvailability
    /// Whether the value syncs to the paired watch.
    public let syncPolicy: SyncPolicy

    /// Creates a key.
    public init(
        _ name: String, domain: StorageDomain, security: SecurityPolicy = .none, serializer: Serializer<Value>,
        owner: String, description: String, availability: PlatformAvailability = .all, syncPolicy: SyncPolicy = .never
    ) {
        self.name = name
        self.domain = domain
        self.security = security
        self.serializer = serializer
        self.owner = owner
        self.description = description
        self.availability = availability
        self.syncPolicy = syncPolicy
    }

    /// The key's metadata, for catalogs and audit reports.
    public var descriptor: StorageKeyDescriptor {
        StorageKeyDescriptor(
            name: name, valueType: "\(Value.self)", domain: domain, security: security, serializer: serializer.name,
            owner: owner, description: description, availability: availability, syncPolicy: syncPolicy)
    }
}

extension StorageKey where Value: Codable {
    /// Creates a key whose values are stored as JSON.
    public init(
        _ name: String, domain: StorageDomain, security: SecurityPolicy = .none, owner: String, description: String,
        availability: PlatformAvailability = .all, syncPolicy: SyncPolicy = .never
    ) {
        self.init(
            name, domain: domain, security: security, serializer: .json, owner: owner, description: description,
            availability: availability, syncPolicy: syncPolicy)
    }
}

/// A snapshot of a key's metadata: what an audit report lists.
public struct StorageKeyDescriptor: Hashable, Sendable, Codable {
    /// The key's name.
    public let name: String
    /// The value's type, as Swift names it.
    public let valueType: String
    /// Where the value is persisted.
    public let domain: StorageDomain
    /// How it is protected.
    public let security: SecurityPolicy
    /// The serializer's name.
    public let serializer: String
    /// Who owns it.
    public let owner: String
    /// What it is for.
    public let description: String
    /// Where it belongs.
    public let availability: PlatformAvailability
    /// Whether it syncs.
    public let syncPolicy: SyncPolicy
}

/// A key with its value type erased, for catalogs that list keys of many types.
public struct AnyStorageKey: Sendable {
    /// The key's metadata.
    public let descriptor: StorageKeyDescriptor

    /// Erases `key`'s value type.
    public init<Value>(_ key: StorageKey<Value>) {
        self.descriptor = key.descriptor
    }
}
