/// A Security framework result code (`OSStatus`), named for the cases Coffer tells apart.
public struct KeychainStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `OSStatus` value.
    public let rawValue: Int32

    /// Creates a status from its `OSStatus` value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `errSecSuccess`.
    public static let success = KeychainStatus(rawValue: 0)
    /// `errSecItemNotFound`: no item matches.
    public static let itemNotFound = KeychainStatus(rawValue: -25300)
    /// `errSecDuplicateItem`: an item with the same primary key exists.
    public static let duplicateItem = KeychainStatus(rawValue: -25299)
    /// `errSecInteractionNotAllowed`: the device is locked, or the item needs a user interaction now forbidden.
    public static let interactionNotAllowed = KeychainStatus(rawValue: -25308)
    /// `errSecMissingEntitlement`: the app lacks the keychain-access-groups entitlement for the access group.
    public static let missingEntitlement = KeychainStatus(rawValue: -34018)
    /// `errSecAuthFailed`: the user's authentication (passcode, biometry) failed.
    public static let authFailed = KeychainStatus(rawValue: -25293)
    /// `errSecUserCanceled`: the user cancelled the authentication prompt.
    public static let userCanceled = KeychainStatus(rawValue: -128)
    /// `errSecParam`: the attributes are invalid together.
    public static let param = KeychainStatus(rawValue: -50)
    /// `errSecNotAvailable`: no keychain is available.
    public static let notAvailable = KeychainStatus(rawValue: -25291)
    /// `errSecDecode`: the item's data could not be decoded.
    public static let decode = KeychainStatus(rawValue: -26275)

    /// The constant's name, or the number.
    public var description: String {
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
