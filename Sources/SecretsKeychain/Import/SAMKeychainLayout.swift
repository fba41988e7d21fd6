/// Items written by SAMKeychain (`setPassword:forService:account:`): generic passwords under the service the app
/// chose, the account being the key; passwords as UTF-8, data as is (a `passwordObject` is an `NSKeyedArchiver`
/// archive, copied as those bytes). Synced and local items alike.
///
/// Written against SAMKeychain 1.5.3; SSKeychain, its predecessor, lays items out the same.
public struct SAMKeychainLayout: KeychainLayout {
    /// The service the app passed.
    public var service: String
    /// The access group of a `SAMKeychainQuery`, or `nil` for the app's default one.
    public var accessGroup: String?

    /// The layout of one service.
    public init(service: String, accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    /// `SAMKeychain 1.5.3 (and SSKeychain)`.
    public var library: String { "SAMKeychain 1.5.3 (and SSKeychain)" }

    /// The items this layout covers and the key of each, for ``KeychainImporter``.
    public var itemSearch: KeychainItemSearch { KeychainItemSearch(query: search) { [self] in key(for: $0) } }

    /// The service and group, synced or not.
    package var search: KeychainQuery {
        KeychainQuery(service: service, accessGroup: accessGroup, synchronizable: .any)
    }

    /// The account.
    package func key(for item: KeychainItem) -> String? {
        item.itemClass == .genericPassword && item.service == service ? item.account : nil
    }
}
