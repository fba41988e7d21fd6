/// When a stored secret may be read, and what the user must do to read it.
///
/// The options mirror the Apple Keychain's accessibility classes and access-control flags. Backends without
/// such notions (files, the Linux Secret Service) store the item all the same and document which parts they
/// honour.
public struct AccessPolicy: Hashable, Sendable, Codable {
    /// When an item is readable, relative to the device's lock state.
    public enum Accessibility: String, Hashable, Sendable, Codable, CaseIterable {
        /// Readable while the device is unlocked; migrates to new devices and syncs.
        case whenUnlocked
        /// Readable while unlocked; never leaves this device.
        case whenUnlockedThisDeviceOnly
        /// Readable after the first unlock since boot; migrates and syncs.
        case afterFirstUnlock
        /// Readable after the first unlock since boot; never leaves this device.
        case afterFirstUnlockThisDeviceOnly
        /// Readable while unlocked, only if a passcode is set; never leaves this device.
        case whenPasscodeSetThisDeviceOnly
        /// Always readable. Deprecated by Apple; kept so existing items can be described.
        case always
        /// Always readable, never leaves this device. Deprecated by Apple; kept for existing items.
        case alwaysThisDeviceOnly

        /// Whether the class keeps the item on this device (and so excludes iCloud sync).
        public var isThisDeviceOnly: Bool {
            switch self {
            case .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .whenPasscodeSetThisDeviceOnly,
                .alwaysThisDeviceOnly:
                return true
            case .whenUnlocked, .afterFirstUnlock, .always:
                return false
            }
        }
    }

    /// What the user must present before the item is used (Keychain access-control flags).
    public struct AccessControl: OptionSet, Hashable, Sendable, Codable {
        /// The flags' bits.
        public let rawValue: UInt32
        /// Creates a set of flags from their bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Biometry or the device passcode.
        public static let userPresence = AccessControl(rawValue: 1 << 0)
        /// Any enrolled biometry.
        public static let biometryAny = AccessControl(rawValue: 1 << 1)
        /// The biometry enrolled when the item was saved.
        public static let biometryCurrentSet = AccessControl(rawValue: 1 << 2)
        /// The device passcode.
        public static let devicePasscode = AccessControl(rawValue: 1 << 3)
        /// A paired Apple Watch.
        public static let watch = AccessControl(rawValue: 1 << 4)
        /// Any one of the listed constraints suffices (instead of all of them).
        public static let or = AccessControl(rawValue: 1 << 5)
        /// All of the listed constraints are required.
        public static let and = AccessControl(rawValue: 1 << 6)
        /// An application-provided password is also required.
        public static let applicationPassword = AccessControl(rawValue: 1 << 7)
        /// The item is a private key usable for signing inside the Secure Enclave.
        public static let privateKeyUsage = AccessControl(rawValue: 1 << 8)

        /// The flags that make the user authenticate (biometry, the passcode, a watch, a password) before the item
        /// is used.
        public static let userAuthentication: AccessControl = [
            .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .watch, .applicationPassword,
        ]

        /// Whether using the item makes the user authenticate.
        public var requiresUserAuthentication: Bool { !isDisjoint(with: .userAuthentication) }
    }

    /// When the item is readable.
    public var accessibility: Accessibility
    /// What the user must present to use the item; empty for none.
    public var accessControl: AccessControl

    /// Creates a policy.
    public init(accessibility: Accessibility, accessControl: AccessControl = []) {
        self.accessibility = accessibility
        self.accessControl = accessControl
    }

    /// The baseline: readable while unlocked, allowed to sync over iCloud, no user presence required.
    public static let defaultSyncableWhenUnlocked = AccessPolicy(accessibility: .whenUnlocked)
    /// Readable after first unlock (for background work), never leaves the device.
    public static let backgroundThisDeviceOnly = AccessPolicy(accessibility: .afterFirstUnlockThisDeviceOnly)

    // MARK: Presets by use

    /// For work that runs in the background (a refresh, a push handler, an extension): readable from the first
    /// unlock after a restart on, locked device or not; may sync and move to a new device.
    public static let backgroundWork = AccessPolicy(accessibility: .afterFirstUnlock)
    /// For what only the app in front needs: readable only while the device is unlocked; may sync and move to a new
    /// device.
    public static let foregroundOnly = AccessPolicy(accessibility: .whenUnlocked)
    /// For what must never leave this device (a device-bound key, a session tied to this install): readable while
    /// unlocked; never synced, never restored onto another device.
    public static let neverLeavesThisDevice = AccessPolicy(accessibility: .whenUnlockedThisDeviceOnly)
    /// For what the user unlocks with Face ID or Touch ID each session: never leaves this device, and is lost (rather
    /// than opened by someone else's face) when the enrolled biometry changes.
    public static let biometricThisDevice = AccessPolicy(
        accessibility: .whenUnlockedThisDeviceOnly, accessControl: .biometryCurrentSet)

    /// Whether an item stored with this policy can be read by work the user does not see while the device is
    /// locked.
    public var isReadableWhileLocked: Bool {
        switch accessibility {
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly, .always, .alwaysThisDeviceOnly:
            return !accessControl.requiresUserAuthentication
        case .whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly:
            return false
        }
    }
}
