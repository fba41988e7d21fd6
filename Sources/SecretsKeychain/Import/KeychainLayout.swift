/// Where another keychain library keeps its items, given that library's configuration: what ``KeychainImporter``
/// looks for. Each layout was read from the library's own sources; ``library`` names the versions.
public protocol KeychainLayout: Sendable {
    /// The library and the versions whose layout this is.
    var library: String { get }
    /// The attributes every item of the layout has (service, access group, synchronizability); the importer adds
    /// the match limit and what to return.
    var search: KeychainQuery { get }
    /// The key the library knows `item` by, or `nil` when the item is not one of the layout's (a library's own
    /// bookkeeping item, another prefix, another service).
    func key(for item: KeychainItem) -> String?
}
