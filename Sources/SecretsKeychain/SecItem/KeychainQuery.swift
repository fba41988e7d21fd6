import Foundation
import Secrets

/// One SecItem attribute dictionary of a password item (generic, or internet for what other libraries wrote),
/// typed: what Coffer passes to `SecItemAdd`, `SecItemCopyMatching`, `SecItemUpdate` and `SecItemDelete`.
///
/// A `nil` property is an attribute left out of the dictionary. The live client turns each property into its
/// `kSec…` key; the emulator reads them directly.
package struct KeychainQuery: Hashable, Sendable {
    /// `kSecAttrSynchronizable`.
    package enum Synchronizability: Hashable, Sendable {
        /// `true`: the item syncs over iCloud Keychain.
        case synchronizable
        /// `false`: the item stays on this device's keychain.
        case notSynchronizable
        /// `kSecAttrSynchronizableAny`, in queries only: match both.
        case any
    }

    /// `kSecClass`.
    package enum ItemClass: Hashable, Sendable {
        /// `kSecClassGenericPassword`: named by service and account (Coffer's own items).
        case genericPassword
        /// `kSecClassInternetPassword`: named by server, protocol, authentication type, port and account.
        case internetPassword
    }

    /// `kSecMatchLimit`.
    package enum MatchLimit: Hashable, Sendable {
        /// `kSecMatchLimitOne`.
        case one
        /// `kSecMatchLimitAll`.
        case all
    }

    /// `kSecClass`.
    package var itemClass: ItemClass
    /// `kSecAttrService` (generic passwords).
    package var service: String?
    /// The server, protocol, authentication type and port of an internet password.
    package var internet: InternetPasswordAttributes?
    /// `kSecAttrAccount`.
    package var account: String?
    /// `kSecAttrAccessGroup`.
    package var accessGroup: String?
    /// `kSecAttrSynchronizable`; absent, a query matches only items that do not sync, and an added item does not.
    package var synchronizable: Synchronizability?
    /// `kSecAttrAccessible` (or, with ``accessControl``, the protection of `kSecAttrAccessControl`).
    package var accessibility: AccessPolicy.Accessibility?
    /// The flags of `kSecAttrAccessControl`; empty for none.
    package var accessControl: AccessPolicy.AccessControl
    /// `kSecValueData`.
    package var data: Data?
    /// `kSecMatchLimit`.
    package var matchLimit: MatchLimit?
    /// `kSecReturnData`.
    package var returnData: Bool
    /// `kSecReturnAttributes`.
    package var returnAttributes: Bool
    /// `kSecUseDataProtectionKeychain` (macOS: the iOS-style keychain rather than the legacy file keychain).
    package var usesDataProtectionKeychain: Bool
    /// `kSecUseAuthenticationContext`: the `LAContext` of this context (its reason, and whether it may prompt).
    package var authentication: AuthenticationContext?
    /// `kSecValuePersistentRef` (`kSecMatchItemList` on macOS): exactly the item with this persistent reference.
    package var persistentReference: Data?
    /// `kSecReturnPersistentRef`.
    package var returnPersistentReference: Bool

    /// Creates an attribute dictionary; every attribute is absent unless given.
    package init(
        service: String? = nil, account: String? = nil, accessGroup: String? = nil,
        synchronizable: Synchronizability? = nil, accessibility: AccessPolicy.Accessibility? = nil,
        accessControl: AccessPolicy.AccessControl = [], data: Data? = nil, matchLimit: MatchLimit? = nil,
        returnData: Bool = false, returnAttributes: Bool = false, usesDataProtectionKeychain: Bool = true,
        authentication: AuthenticationContext? = nil, itemClass: ItemClass = .genericPassword,
        internet: InternetPasswordAttributes? = nil, persistentReference: Data? = nil,
        returnPersistentReference: Bool = false
    ) {
        self.persistentReference = persistentReference
        self.returnPersistentReference = returnPersistentReference
        self.itemClass = itemClass
        self.internet = internet
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.accessibility = accessibility
        self.accessControl = accessControl
        self.data = data
        self.matchLimit = matchLimit
        self.returnData = returnData
        self.returnAttributes = returnAttributes
        self.usesDataProtectionKeychain = usesDataProtectionKeychain
        self.authentication = authentication
    }
}

/// A password item as `SecItemCopyMatching` returns it.
package struct KeychainItem: Hashable, Sendable {
    /// `kSecClass`.
    package var itemClass: KeychainQuery.ItemClass = .genericPassword
    /// `kSecAttrService` (empty for an internet password).
    package var service: String
    /// The server, protocol, authentication type and port of an internet password.
    package var internet: InternetPasswordAttributes?
    /// `kSecAttrAccount`.
    package var account: String
    /// `kSecAttrAccessGroup`.
    package var accessGroup: String
    /// `kSecAttrSynchronizable`.
    package var synchronizable: Bool
    /// `kSecAttrAccessible`.
    package var accessibility: AccessPolicy.Accessibility
    /// `kSecValueData`, when the query asked for it.
    package var data: Data?
    /// `kSecValuePersistentRef`, when the query asked for it: names this item and no other.
    package var persistentReference: Data?

    /// Creates an item description.
    package init(
        service: String, account: String, accessGroup: String, synchronizable: Bool,
        accessibility: AccessPolicy.Accessibility, data: Data? = nil,
        itemClass: KeychainQuery.ItemClass = .genericPassword,
        internet: InternetPasswordAttributes? = nil, persistentReference: Data? = nil
    ) {
        self.persistentReference = persistentReference
        self.itemClass = itemClass
        self.internet = internet
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.accessibility = accessibility
        self.data = data
    }
}
