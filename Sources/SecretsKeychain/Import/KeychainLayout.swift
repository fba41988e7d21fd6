/// Where another keychain library keeps its items, given that library's configuration: what ``KeychainImporter``
/// looks for. Each layout was read from the library's own sources; ``library`` names the versions.
public protocol KeychainLayout: Sendable {
    /// The library and the versions whose layout this is.
    var library: String { get }
    /// Which items are the library's, and the key it knows each by.
    var itemSearch: KeychainItemSearch { get }
}

/// The items of a ``KeychainLayout`` and the key their library knows each by; only this module's layouts make one,
/// each from the library's own sources.
public struct KeychainItemSearch: Sendable {
    /// The attributes every item of the layout has (service, access group, synchronizability); the importer adds
    /// the match limit and what to return.
    package let query: KeychainQuery
    /// The key the library knows an item by, or `nil` when the item is not one of the layout's (a library's own
    /// bookkeeping item, another prefix, another service).
    package let key: @Sendable (KeychainItem) -> String?

    /// Pairs a query with how to read keys from what it finds.
    package init(query: KeychainQuery, key: @escaping @Sendable (KeychainItem) -> String?) {
        self.query = query
        self.key = key
    }
}
