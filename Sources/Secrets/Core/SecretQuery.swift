/// Where a secret lives in a backend: the physical attributes a ``ServiceID`` expands to.
///
/// `service` is the store-wide service name (the Keychain's `kSecAttrService`), `account` the secret's path
/// (`kSecAttrAccount`), `accessGroup` the sharing group, `synchronizable` whether it may sync over iCloud, and
/// `accessPolicy` when it may be read. Backends move bytes at a query; the typed layer above builds queries from
/// a ``SecretsConfiguration`` and a ``ServiceID``. `Value` is the phantom type of the secret at this place (use `Data`
/// for untyped access).
public struct SecretQuery<Value>: Hashable, Sendable {
    /// The service name shared by all of a store's items.
    public var service: String
    /// The secret's path.
    public var account: String
    /// The access group items are shared through, or `nil` for the default one.
    public var accessGroup: String?
    /// Whether the item may be synchronized between devices.
    public var synchronizable: Bool
    /// When the item may be read.
    public var accessPolicy: AccessPolicy
    /// How an access to an item that needs the user may prompt; `nil`: the platform's default.
    public var authentication: AuthenticationContext?

    /// Creates a query from its attributes; without `authentication`, the one the task's read was given
    /// (``SecretsStore/read(_:authentication:)``), if any.
    public init(
        service: String,
        account: String,
        accessGroup: String? = nil,
        synchronizable: Bool = false,
        accessPolicy: AccessPolicy = .defaultSyncableWhenUnlocked,
        authentication: AuthenticationContext? = nil
    ) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.accessPolicy = accessPolicy
        self.authentication = authentication ?? AuthenticationContext.current
    }

    /// Expands a typed identifier with a store's configuration.
    public init(id: ServiceID<Value>, configuration: SecretsConfiguration) {
        self.init(
            service: configuration.service,
            account: id.path,
            accessGroup: configuration.accessGroup,
            synchronizable: configuration.synchronizable,
            accessPolicy: configuration.accessPolicy,
            // A read's own context wins over the store's.
            authentication: AuthenticationContext.current ?? configuration.authentication
        )
    }

    /// Throws ``SecretsError/invalidIdentifier(_:reason:)`` unless the service, account and access group follow
    /// ``SecretPath``'s rules. Every backend calls this before it touches storage.
    public func validate() throws {
        try SecretPath.validate(name: service, role: "service name")
        try SecretPath.validate(path: account)
        if let accessGroup {
            try SecretPath.validate(name: accessGroup, role: "access group")
        }
    }
}
