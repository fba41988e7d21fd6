/// A Security framework result code (`OSStatus`), named for the cases Coffer tells apart.
package struct KeychainStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `OSStatus` value.
    package let rawValue: Int32

    /// Creates a status from its `OSStatus` value.
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// `errSecSuccess`.
    package static let success = KeychainStatus(rawValue: 0)
    /// `errSecItemNotFound`: no item matches.
    package static let itemNotFound = KeychainStatus(rawValue: -25300)
    /// `errSecDuplicateItem`: an item with the same primary key exists.
    package static let duplicateItem = KeychainStatus(rawValue: -25299)
    /// `errSecInteractionNotAllowed`: the device is locked, or the item needs a user interaction now forbidden.
    package static let interactionNotAllowed = KeychainStatus(rawValue: -25308)
    /// `errSecMissingEntitlement`: the app lacks the keychain-access-groups entitlement for the access group.
    package static let missingEntitlement = KeychainStatus(rawValue: -34018)
    /// `errSecAuthFailed`: the user's authentication (passcode, biometry) failed.
    package static let authFailed = KeychainStatus(rawValue: -25293)
    /// `errSecUserCanceled`: the user cancelled the authentication prompt.
    package static let userCanceled = KeychainStatus(rawValue: -128)
    /// `errSecParam`: the attributes are invalid together.
    package static let param = KeychainStatus(rawValue: -50)
    /// `errSecNotAvailable`: no keychain is available.
    package static let notAvailable = KeychainStatus(rawValue: -25291)
    /// `errSecDecode`: the item's data could not be decoded.
    package static let decode = KeychainStatus(rawValue: -26275)

    /// The constant's name, or the number.
    package var description: String {
        switch self {
        case .success: return "errSecSuccess"
        case .itemNotFound: return "errSecItemNotFound"
        case .duplicateItem: return "errSecDuplicateItem"
        case .interactionNotAllowed: return "errSecInteractionNotAllowed"
        case .missingEntitlement: return "errSecMissingEntitlement"
        case .authFailed: return "errSecAuthFailed"
        case .userCanceled: return "errSecUserCanceled"
        case .param: return "errSecParam"
        case .notAvailable: return "errSecNotAvailable"
        case .decode: return "errSecDecode"
        default: return "OSStatus \(rawValue)"
        }
    }
}
