import Foundation
import Secrets

/// The Apple platform a Keychain belongs to, for what it supports: the access-control flags that exist there, and
/// whether a process without a keychain entitlement has another keychain to fall back to.
///
/// ``SecItemEmulator`` takes one so that tests on Linux see each platform's rules.
public struct KeychainPlatform: Hashable, Sendable, CustomStringConvertible {
    /// The platform's name, as Apple writes it.
    package let name: String
    /// The access-control flags `SecAccessControlCreateFlags` has on this platform.
    package let supportedAccessControl: AccessPolicy.AccessControl
    /// Whether a legacy, file-based keychain exists beside the data protection keychain (macOS only).
    package let hasFileBasedKeychain: Bool

    /// The flags every platform has.
    private static let common: AccessPolicy.AccessControl = [
        .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .or, .and, .applicationPassword,
        .privateKeyUsage,
    ]

    /// macOS: `kSecAccessControlWatch` exists (macOS 10.15+), and so does the file-based keychain.
    public static let macOS = KeychainPlatform(
        name: "macOS", supportedAccessControl: common.union(.watch), hasFileBasedKeychain: true)
    /// Mac Catalyst: `kSecAccessControlWatch` exists (Mac Catalyst 13+).
    public static let macCatalyst = KeychainPlatform(
        name: "Mac Catalyst", supportedAccessControl: common.union(.watch), hasFileBasedKeychain: false)
    /// iOS and iPadOS: no `kSecAccessControlWatch` (`ios(NA)` in Security's headers).
    public static let iOS = KeychainPlatform(name: "iOS", supportedAccessControl: common, hasFileBasedKeychain: false)
    /// watchOS.
    public static let watchOS = KeychainPlatform(
        name: "watchOS", supportedAccessControl: common, hasFileBasedKeychain: false)
    /// tvOS.
    public static let tvOS = KeychainPlatform(name: "tvOS", supportedAccessControl: common, hasFileBasedKeychain: false)
    /// visionOS.
    public static let visionOS = KeychainPlatform(
        name: "visionOS", supportedAccessControl: common, hasFileBasedKeychain: false)

    /// The platform's name.
    public var description: String { name }

    /// The flags of `control` that do not exist on this platform.
    package func unsupportedFlags(in control: AccessPolicy.AccessControl) -> AccessPolicy.AccessControl {
        control.subtracting(supportedAccessControl)
    }
}

/// How a ``KeychainQuery``'s protection is written into the SecItem dictionary: the one decision both
/// ``LiveSecItemClient`` and ``SecItemEmulator`` follow, so that what is tested on Linux is what runs on a device.
package enum KeychainProtection: Hashable, Sendable {
    /// Neither `kSecAttrAccessible` nor `kSecAttrAccessControl`.
    case unspecified
    /// `kSecAttrAccessible` alone.
    case accessible(AccessPolicy.Accessibility)
    /// `kSecAttrAccessControl`, made with `SecAccessControlCreateWithFlags(protection, flags)`.
    case accessControl(AccessPolicy.Accessibility, AccessPolicy.AccessControl)
}

/// Why a query's protection cannot be written as asked: the item would be stored weaker than asked, so it is not
/// stored at all.
package struct KeychainProtectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The flags the platform does not have (empty when the problem is something else).
    package let unsupportedFlags: AccessPolicy.AccessControl
    /// What is wrong and what to do.
    package let description: String

    /// Creates the error.
    package init(unsupportedFlags: AccessPolicy.AccessControl = [], description: String) {
        self.unsupportedFlags = unsupportedFlags
        self.description = description
    }
}

extension KeychainQuery {
    /// How this query's accessibility and access control are written on `platform`.
    ///
    /// Access-control flags the platform lacks (`.watch` off macOS) and flags without an accessibility class are
    /// errors: dropping them would store the item with less protection than asked.
    package func protection(on platform: KeychainPlatform) -> Result<KeychainProtection, KeychainProtectionError> {
        guard !accessControl.isEmpty else { return .success(accessibility.map { .accessible($0) } ?? .unspecified) }
        let missing = platform.unsupportedFlags(in: accessControl)
        guard missing.isEmpty else {
            return .failure(
                KeychainProtectionError(
                    unsupportedFlags: missing,
                    description:
                        "the access-control flags \(missing.flagNames) do not exist on \(platform); the item would be "
                        + "stored without them, so it was not stored: choose flags \(platform) supports"))
        }
        guard let accessibility else {
            return .failure(
                KeychainProtectionError(
                    description: "access-control flags need an accessibility class to be created with"))
        }
        return .success(.accessControl(accessibility, accessControl))
    }
}

extension AccessPolicy.AccessControl {
    /// The flags' names, for messages.
    var flagNames: String {
        let names: [(AccessPolicy.AccessControl, String)] = [
            (.userPresence, "userPresence"), (.biometryAny, "biometryAny"),
            (.biometryCurrentSet, "biometryCurrentSet"), (.devicePasscode, "devicePasscode"), (.watch, "watch"),
            (.or, "or"), (.and, "and"), (.applicationPassword, "applicationPassword"),
            (.privateKeyUsage, "privateKeyUsage"),
        ]
        return "[" + names.filter { contains($0.0) }.map { "." + $0.1 }.joined(separator: ", ") + "]"
    }
}
