/// Items written by Square's Valet: generic passwords under a service string Valet makes from the valet's
/// identifier, flavor and accessibility, the account being the key; strings as UTF-8, data as is. Valet's own
/// canary item (`VAL_KeychainCanaryUsername`) is left alone.
///
/// Written against Valet 5.1.0; Valet 2 to 4 make the same service strings for the stock classes (a subclass of
/// Valet 2's `VALValet` put its own class name in the string).
public struct ValetLayout: KeychainLayout {
    /// Which valet wrote the items.
    public enum Flavor: Hashable, Sendable {
        /// `Valet.valet(…)`: local items.
        case vanilla
        /// `Valet.iCloudValet(…)`: items that sync over iCloud.
        case iCloud
        /// `SecureEnclaveValet`: items behind the user's authentication (each read prompts).
        case secureEnclave(SecureEnclaveAccessControl)
        /// `SinglePromptSecureEnclaveValet`: the same items, read with one prompt.
        case singlePromptSecureEnclave(SecureEnclaveAccessControl)
    }

    /// A Secure Enclave valet's `SecureEnclaveAccessControl`.
    public enum SecureEnclaveAccessControl: Hashable, Sendable {
        /// `.userPresence` (no suffix in the service string, as in Valet 1 and 2).
        case userPresence
        /// `.biometricAny`.
        case biometricAny
        /// `.biometricCurrentSet`.
        case biometricCurrentSet
        /// `.devicePasscode`.
        case devicePasscode

        var serviceSuffix: String {
            switch self {
            case .userPresence: return ""
            case .biometricAny: return "_AccessControlTouchIDAnyFingerprint"
            case .biometricCurrentSet: return "_AccessControlTouchIDCurrentFingerprintSet"
            case .devicePasscode: return "_AccessControlDevicePasscode"
            }
        }
    }

    /// A valet's `Accessibility` (or `CloudAccessibility`), as Valet names it in the service string.
    public enum Accessibility: String, Hashable, Sendable, CaseIterable {
        /// `.whenUnlocked`.
        case whenUnlocked = "AccessibleWhenUnlocked"
        /// `.afterFirstUnlock`.
        case afterFirstUnlock = "AccessibleAfterFirstUnlock"
        /// `.whenPasscodeSetThisDeviceOnly`.
        case whenPasscodeSetThisDeviceOnly = "AccessibleWhenPasscodeSetThisDeviceOnly"
        /// `.whenUnlockedThisDeviceOnly`.
        case whenUnlockedThisDeviceOnly = "AccessibleWhenUnlockedThisDeviceOnly"
        /// `.afterFirstUnlockThisDeviceOnly`.
        case afterFirstUnlockThisDeviceOnly = "AccessibleAfterFirstUnlockThisDeviceOnly"
    }

    /// How the valet was named.
    public enum Identity: Hashable, Sendable {
        /// `identifier:` (an `Identifier`'s string).
        case identifier(String)
        /// `sharedGroupIdentifier:` (and, since Valet 4.2, an optional `identifier:`): the group's prefix (the team
        /// or app identifier prefix, or `group` for an App Group) and its name.
        case sharedGroup(prefix: String, group: String, identifier: String? = nil)
        /// `withExplicitlySet:` an identifier, used as the service verbatim.
        case explicitlySet(String)
        /// `sharedGroupValet(withExplicitlySet:)`: the group's name is the service.
        case explicitlySetSharedGroup(prefix: String, group: String)
    }

    /// How the valet was named.
    public var identity: Identity
    /// Its flavor.
    public var flavor: Flavor
    /// Its accessibility (Secure Enclave valets always use `whenPasscodeSetThisDeviceOnly`).
    public var accessibility: Accessibility

    /// The layout of one valet.
    public init(_ identity: Identity, flavor: Flavor = .vanilla, accessibility: Accessibility = .whenUnlocked) {
        self.identity = identity
        self.flavor = flavor
        switch flavor {
        case .secureEnclave, .singlePromptSecureEnclave: self.accessibility = .whenPasscodeSetThisDeviceOnly
        case .vanilla, .iCloud: self.accessibility = accessibility
        }
    }

    /// `Valet 5.1.0 (and 2 to 4)`.
    public var library: String { "Valet 5.1.0 (and 2 to 4)" }

    /// The items this layout covers and the key of each, for ``KeychainImporter``.
    public var itemSearch: KeychainItemSearch { KeychainItemSearch(query: search) { [self] in key(for: $0) } }

    /// The account of Valet's canary item, written to check that the keychain is reachable.
    static let canaryAccount = "VAL_KeychainCanaryUsername"

    /// The `kSecAttrService` Valet writes.
    public var service: String {
        let configuration: String
        var suffix = ""
        switch flavor {
        case .vanilla: configuration = "VALValet"
        case .iCloud: configuration = "VALSynchronizableValet"
        case .secureEnclave(let control):
            configuration = "VALSecureEnclaveValet"
            suffix = control.serviceSuffix
        case .singlePromptSecureEnclave(let control):
            configuration = "VALSinglePromptSecureEnclaveValet"
            suffix = control.serviceSuffix
        }
        let named: String
        switch identity {
        case .explicitlySet(let identifier): return identifier
        case .explicitlySetSharedGroup(_, let group): return group
        case .identifier(let identifier): named = "initWithIdentifier:accessibility:_\(identifier)"
        case .sharedGroup(_, let group, let identifier):
            named = "initWithSharedAccessGroupIdentifier:accessibility:_\(group)" + (identifier.map { "_\($0)" } ?? "")
        }
        return "VAL_\(configuration)_\(named)_\(accessibility.rawValue)\(suffix)"
    }

    /// The `kSecAttrAccessGroup` of a shared-group valet (`prefix.group`); `nil` (the app's default group) for the
    /// others.
    public var accessGroup: String? {
        switch identity {
        case .sharedGroup(let prefix, let group, _), .explicitlySetSharedGroup(let prefix, let group):
            return "\(prefix).\(group)"
        case .identifier, .explicitlySet:
            return nil
        }
    }

    /// The service and group; iCloud valets' items sync, the others' do not.
    package var search: KeychainQuery {
        KeychainQuery(
            service: service, accessGroup: accessGroup,
            synchronizable: flavor == .iCloud ? .synchronizable : .notSynchronizable)
    }

    /// The account, except for Valet's canary.
    package func key(for item: KeychainItem) -> String? {
        item.service == service && item.account != Self.canaryAccount ? item.account : nil
    }
}
