import Foundation

/// Items written by Auth0's SimpleKeychain: generic passwords whose service is the `SimpleKeychain`'s (the app's
/// bundle identifier by default) and whose account is the key; strings as UTF-8, data as is. Only items that sync
/// when the `SimpleKeychain` was made with `synchronizable: true`, only local ones otherwise.
///
/// Written against SimpleKeychain 1.3.0; the Objective-C `A0SimpleKeychain` 0.x lays items out the same.
public struct SimpleKeychainLayout: KeychainLayout {
    /// The `SimpleKeychain`'s service.
    public var service: String
    /// Its access group, or `nil` for the app's default one.
    public var accessGroup: String?
    /// Whether it was made with `synchronizable: true`.
    public var synchronizable: Bool

    /// The layout of `SimpleKeychain(service:accessGroup:synchronizable:)`; without a service, the main bundle's
    /// identifier.
    public init(service: String? = nil, accessGroup: String? = nil, synchronizable: Bool = false) {
        self.service = service ?? Bundle.main.bundleIdentifier ?? ""
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
    }

    /// `SimpleKeychain 1.3.0 (and 0.x)`.
    public var library: String { "SimpleKeychain 1.3.0 (and 0.x)" }

    /// The items this layout covers and the key of each, for ``KeychainImporter``.
    public var itemSearch: KeychainItemSearch { KeychainItemSearch(query: search) { [self] in key(for: $0) } }

    /// The service and group, synced or local as configured.
    package var search: KeychainQuery {
        KeychainQuery(
            service: service, accessGroup: accessGroup,
            synchronizable: synchronizable ? .synchronizable : .notSynchronizable)
    }

    /// The account.
    package func key(for item: KeychainItem) -> String? {
        item.itemClass == .genericPassword && item.service == service ? item.account : nil
    }
}
