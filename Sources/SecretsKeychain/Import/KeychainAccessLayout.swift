import Foundation

/// Items written by KeychainAccess (`Keychain(service:accessGroup:)`): generic passwords whose service is the
/// `Keychain`'s (the app's bundle identifier by default) and whose account is the key; strings as UTF-8, data as
/// is; synced and local items alike.
///
/// Written against KeychainAccess 4.2.2; versions 1 to 3 lay items out the same. Internet passwords
/// (`Keychain(server:protocolType:)`) are not imported.
public struct KeychainAccessLayout: KeychainLayout {
    /// The `Keychain`'s service.
    public var service: String
    /// The `Keychain`'s access group, or `nil` for the app's default one.
    public var accessGroup: String?

    /// The layout of `Keychain(service:accessGroup:)`; without a service, `Keychain()`'s (the main bundle's
    /// identifier, or empty without one).
    public init(service: String? = nil, accessGroup: String? = nil) {
        self.service = service ?? Bundle.main.bundleIdentifier ?? ""
        self.accessGroup = accessGroup
    }

    /// `KeychainAccess 4.2.2 (the same layout since 1.0)`.
    public var library: String { "KeychainAccess 4.2.2 (the same layout since 1.0)" }

    /// The service and group, synced or not.
    public var search: KeychainQuery {
        KeychainQuery(service: service, accessGroup: accessGroup, synchronizable: .any)
    }

    /// The account.
    public func key(for item: KeychainItem) -> String? {
        item.service == service ? item.account : nil
    }
}
