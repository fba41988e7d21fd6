import Foundation
import Secrets

/// One SecItem attribute dictionary of a password item (generic, or internet for what other libraries wrote),
/// typed: what Coffer passes to `SecItemAdd`, `SecItemCopyMatching`, `SecItemUpdate` and `SecItemDelete`.
///
/// A `nil` property is an attribute left out of the dictionary. The live client turns each property into its
/// `kSec…` key; the emulator reads them directly.
public struct KeychainQuery: Hashable, Sendable {
    /// `kSecAttrSynchronizable`.
    public enum Synchronizability: Hashable, Sendable {
        /// `true`: the item syncs over iCloud Keychain.
        case synchronizable
        /// `false`: the item stays on this device's keychain.
        case notSynchronizable
        /// `kSecAttrSynchronizableAny`, in queries only: match both.
        case any
    }

    /// `kSecClass`.
    public enum ItemClass: Hashable, Sendable {
        /// `kSecClassGenericPassword`: named by service and account (Coffer's own items).
        case genericPassword
        /// `kSecClassInternetPassword`: named by server, protocol, authentication type, port and account.
        case internetPassword
    }

    /// `kSecMatchLimit`.
    public enum MatchLimit: Hashable, Sendable {
        /// `kSecMatchLimitOne`.
        case one
        /// `kSecMatchLimitAll`.
        case all
    }

    /// `kSecClass`.
    public var itemClass: ItemClass
    /// `kSecAttrService` (generic passwords).
    public var service: String?
    /// The server, protocol, authentication type and port of an internet password.
    public var internet: InternetPasswordAttributes?
    /// `kSecAttrAccount`.
    public var account: String?
    /// `kSecAttrAccessGroup`.
    public var accessGroup: String?
    /// `kSecAttrSynchronizable`; absent, a query matches only items that do not sync, and an added item does not.
    public var synchronizable: Synchronizability?
    /// `kSecAttrAccessible` (or, with ``accessControl``, the protection of `kSecAttrAccessControl`).
    public var accessibility: AccessPolicy.Accessibility?
    /// The flags of `kSecAttrAccessControl`; empty for none.
    public var accessControl: AccessPolicy.AccessControl
    /// `kSecValueData`.
    public var data: Data?
    /// `kSecMatchLimit`.
    public var matchLimit: MatchLimit?
    /// `kSecReturnData`.
    public var returnData: Bool
    /// `kSecReturnAttributes`.
    public var returnAttributes: Bool
    /// `kSecUseDataProtectionKeychain` (macOS: the iOS-style keychain rather than the legacy file keychain).
    public var usesDataProtectionKeychain: Bool
    /// `kSecUseAuthenticationContext`: the `LAContext` of this context (its reason, and whether it may prompt).
    public var authentication: AuthenticationContext?
    /// `kSecValuePersistentRef` (`kSecMatchItemList` on macOS): exactly the item with this persistent reference.
    public var persistentReference: Data?
    /// `kSecReturnPersistentRef`.
    public var returnPersistentReference: Bool

    /// Creates an attribute dictionary; every attribute is absent unless given.
    public init(
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
public struct KeychainItem: Hashable, Sendable {
    /// `kSecClass`.
    public var itemClass: KeychainQuery.ItemClass = .genericPassword
    /// `kSecAttrService` (empty for an internet password).
    public var service: String
    /// The server, protocol, authentication type and port of an internet password.
    public var internet: InternetPasswordAttributes?
    /// `kSecAttrAccount`.
    public var account: String
    /// `kSecAttrAccessGroup`.
    public var accessGroup: String
    /// `kSecAttrSynchronizable`.
    public var synchronizable: Bool
    /// `kSecAttrAccessible`.
    public var accessibility: AccessPolicy.Accessibility
    /// `kSecValueData`, when the query asked for it.
    public var data: Data?
    /// `kSecValuePersistentRef`, when the query asked for it: names this item and no other.
    public var persistentReference: Data?

    /// Creates an item description.
    public init(
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
