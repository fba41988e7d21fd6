import Secrets

/// How a value is protected at rest.
public enum SecurityPolicy: Hashable, Sendable, Codable {
    /// No protection beyond the domain's own (for values that are not secret).
    case none
    /// Kept in the platform key store, readable per `accessibility`, with the user checks of `accessControl`.
    case keychain(accessibility: KeychainAccessibility, accessControl: KeychainAccessControl?)
    /// Sealed with authenticated encryption under a key derived with `keyDerivation`.
    case encrypted(algorithm: EncryptionAlgorithm, keyDerivation: KeyDerivation)

    /// The baseline for secrets: the key store, readable while unlocked, no user check.
    public static let keychainDefault = SecurityPolicy.keychain(accessibility: .whenUnlocked, accessControl: nil)
}

/// How the key that encrypts a value is derived from its key material.
public enum KeyDerivation: Hashable, Sendable, Codable {
    /// PBKDF2-HMAC-SHA256 with this many iterations (for passphrases).
    case pbkdf2(iterations: Int)
    /// HKDF-SHA256 (for random key material).
    case hkdf
}

/// When a keychain item may be read: the seven Keychain accessibility classes, the same type the credential
/// store uses.
public typealias KeychainAccessibility = AccessPolicy.Accessibility

/// What the user must present before a keychain item is used: the six Keychain access-control options.
public enum KeychainAccessControl: String, Hashable, Sendable, Codable, CaseIterable {
    /// Biometry or the device passcode.
    case userPresence
    /// Any enrolled biometry.
    case biometryAny
    /// The biometry enrolled when the item was saved.
    case biometryCurrentSet
    /// The device passcode.
    case devicePasscode
    /// Biometry (any enrolled) or the device passcode, whichever the user offers.
    case biometryAnyOrDevicePasscode
    /// Biometry (the current set) or the device passcode.
    case biometryCurrentSetOrDevicePasscode

    /// The same constraint as Coffer's credential store's flags.
    public var accessControl: AccessPolicy.AccessControl {
        switch self {
        case .userPresence: return .userPresence
        case .biometryAny: return .biometryAny
        case .biometryCurrentSet: return .biometryCurrentSet
        case .devicePasscode: return .devicePasscode
        case .biometryAnyOrDevicePasscode: return [.biometryAny, .or, .devicePasscode]
        case .biometryCurrentSetOrDevicePasscode: return [.biometryCurrentSet, .or, .devicePasscode]
        }
    }
}

extension SecurityPolicy {
    /// The credential store's access policy for a keychain-protected value, or `nil` for other policies.
    public var accessPolicy: AccessPolicy? {
        guard case .keychain(let accessibility, let control) = self else { return nil }
        return AccessPolicy(accessibility: accessibility, accessControl: control?.accessControl ?? [])
    }
}
