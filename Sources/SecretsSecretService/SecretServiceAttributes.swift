/// How Coffer's query attributes map to Secret Service item attributes.
///
/// Coffer stores an item under the attributes `service`, `account` and, when the query has one, `access_group`;
/// that is what `secret-tool store --label=L service S account A` writes too, so each tool reads the other's items.
/// Python's keyring library names the account `username`: give ``account`` that name to share its items.
///
/// A Secret Service search matches every item whose attributes *include* the ones asked for. Coffer narrows the
/// results to exact matches of the access group: a query without a group matches only items without an
/// `access_group` attribute. Other attributes (keyring's `application`, libsecret's `xdg:schema`) are ignored.
public struct SecretServiceAttributes: Hashable, Sendable {
    /// The attribute that holds the service name (default `service`).
    public var service: String
    /// The attribute that holds the account, the secret's path (default `account`; Python keyring: `username`).
    public var account: String
    /// The attribute that holds the access group, absent for items of the default group (default `access_group`).
    public var accessGroup: String

    /// Creates a mapping; the defaults are Coffer's and `secret-tool`'s names.
    public init(service: String = "service", account: String = "account", accessGroup: String = "access_group") {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
    }

    /// The attributes `secret-tool` uses: Coffer's defaults.
    public static let coffer = SecretServiceAttributes()
    /// The attributes Python's keyring library uses (`service` and `username`).
    public static let pythonKeyring = SecretServiceAttributes(account: "username")

    /// The attributes that identify one item.
    func item(service: String, account: String, accessGroup: String?) -> [String: String] {
        var attributes = [self.service: service, self.account: account]
        if let accessGroup { attributes[self.accessGroup] = accessGroup }
        return attributes
    }

    /// The attributes that select every item of a service in a group (narrowed further by ``matches(_:accessGroup:)``).
    func service(_ service: String, accessGroup: String?) -> [String: String] {
        var attributes = [self.service: service]
        if let accessGroup { attributes[self.accessGroup] = accessGroup }
        return attributes
    }

    /// Whether a found item belongs to `accessGroup` exactly (`nil`: the item has no access group attribute).
    func matches(_ attributes: [String: String], accessGroup: String?) -> Bool {
        attributes[self.accessGroup] == accessGroup
    }
}
