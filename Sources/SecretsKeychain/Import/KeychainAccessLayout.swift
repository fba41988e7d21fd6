import Foundation

/// Items written by KeychainAccess: generic passwords of a `Keychain(service:accessGroup:)` (the service is the app's
/// bundle identifier by default), or internet passwords of a `Keychain(server:protocolType:…)`; the account is the
/// key; strings as UTF-8, data as is; synced and local items alike.
///
/// Written against KeychainAccess 4.2.2; versions 1 to 3 lay items out the same.
public struct KeychainAccessLayout: KeychainLayout {
    /// Which `Keychain` wrote the items.
    package enum Items: Hashable, Sendable {
        /// `Keychain(service:)`: generic passwords of the service.
        case genericPassword(service: String)
        /// `Keychain(server:protocolType:authenticationType:)`: internet passwords of the server's host, its port when
        /// the URL named one, the protocol and the authentication type.
        case internetPassword(InternetPasswordAttributes)
    }

    /// Which `Keychain` wrote the items.
    package var items: Items
    /// The `Keychain`'s access group, or `nil` for the app's default one.
    public var accessGroup: String?

    /// The layout of `Keychain(service:accessGroup:)`; without a service, `Keychain()`'s (the main bundle's
    /// identifier, or empty without one).
    public init(service: String? = nil, accessGroup: String? = nil) {
        self.items = .genericPassword(service: service ?? Bundle.main.bundleIdentifier ?? "")
        self.accessGroup = accessGroup
    }

    /// The layout of `Keychain(server:protocolType:accessGroup:authenticationType:)`: KeychainAccess keeps the
    /// URL's host, and its port only when the URL names one.
    public init(
        server: URL, protocolType: KeychainInternetProtocol,
        authenticationType: KeychainAuthenticationType = .default, accessGroup: String? = nil
    ) {
        self.items = .internetPassword(
            InternetPasswordAttributes(
                server: server.host ?? "", internetProtocol: protocolType, authenticationType: authenticationType,
                port: server.port))
        self.accessGroup = accessGroup
    }

    /// `KeychainAccess 4.2.2 (the same layout since 1.0)`.
    public var library: String { "KeychainAccess 4.2.2 (the same layout since 1.0)" }

    /// The items this layout covers and the key of each, for ``KeychainImporter``.
    public var itemSearch: KeychainItemSearch { KeychainItemSearch(query: search) { [self] in key(for: $0) } }

    /// The service (or the server's attributes) and group, synced or not.
    package var search: KeychainQuery {
        switch items {
        case .genericPassword(let service):
            return KeychainQuery(service: service, accessGroup: accessGroup, synchronizable: .any)
        case .internetPassword(let internet):
            return KeychainQuery(
                accessGroup: accessGroup, synchronizable: .any, itemClass: .internetPassword, internet: internet)
        }
    }

    /// The account.
    package func key(for item: KeychainItem) -> String? {
        switch items {
        case .genericPassword(let service):
            return item.itemClass == .genericPassword && item.service == service ? item.account : nil
        case .internetPassword(let internet):
            return item.itemClass == .internetPassword && item.internet.map(internet.matches) == true
                ? item.account : nil
        }
    }
}
