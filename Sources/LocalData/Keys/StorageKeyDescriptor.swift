import Foundation

/// A snapshot of a key's metadata: what catalogs hold and catalog reports list.
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
    /// Which provider supplies key material for encryption.
    public let keyMaterialSource: KeyMaterialSource
    /// Who owns it.
    public let owner: String
    /// What it is for.
    public let description: String
    /// Where it belongs.
    public let availability: PlatformAvailability
    /// Whether it syncs.
    public let syncPolicy: SyncPolicy

    /// Creates a descriptor (catalogs read from JSON are made of these).
    public init(
        name: String, valueType: String, domain: StorageDomain, security: SecurityPolicy, serializer: String,
        keyMaterialSource: KeyMaterialSource = .default, owner: String, description: String,
        availability: PlatformAvailability, syncPolicy: SyncPolicy
    ) {
        self.name = name
        self.valueType = valueType
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
