/// Items written by keychain-swift (`KeychainSwift(keyPrefix:)`): generic passwords with no service at all, whose
/// account is the key prefix followed by the key; strings as UTF-8, data as is, a `Bool` as one byte. Only local
/// items, or only syncing ones when the app set `synchronizable = true`.
///
/// Without a service, another library's item with the same account in the same group would match keychain-swift's
/// own lookups; the importer takes only items whose service is empty and whose account starts with the prefix.
///
/// Written against keychain-swift 24.0.0 (the layout has not changed since its first version).
public struct KeychainSwiftLayout: KeychainLayout {
    /// The `keyPrefix` the app used.
    public var keyPrefix: String
    /// The `accessGroup` it set, or `nil` for the app's default one.
    public var accessGroup: String?
    /// Whether it set `synchronizable = true`.
    public var synchronizable: Bool

    /// The layout of `KeychainSwift(keyPrefix:)` with the access group and synchronizability it was given.
    public init(keyPrefix: String = "", accessGroup: String? = nil, synchronizable: Bool = false) {
        self.keyPrefix = keyPrefix
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
    }

    /// `keychain-swift 24.0.0`.
    public var library: String { "keychain-swift 24.0.0" }

    /// The items this layout covers and the key of each, for ``KeychainImporter``.
    public var itemSearch: KeychainItemSearch { KeychainItemSearch(query: search) { [self] in key(for: $0) } }

    /// Every item of the group, synced or local as configured (filtered by `key(for:)`).
    package var search: KeychainQuery {
        KeychainQuery(
            accessGroup: accessGroup, synchronizable: synchronizable ? .synchronizable : .notSynchronizable)
    }

    /// The account without the prefix, for an item without a service.
    package func key(for item: KeychainItem) -> String? {
        guard item.service.isEmpty, item.account.hasPrefix(keyPrefix), item.account.count > keyPrefix.count else {
            return nil
        }
        return String(item.account.dropFirst(keyPrefix.count))
    }
}
