import Foundation

/// Where a value is persisted.
public enum StorageDomain: Hashable, Sendable, Codable {
    /// `UserDefaults.standard` (on Linux, a property list under `$XDG_CONFIG_HOME`).
    case userDefaults
    /// The `UserDefaults` suite of an app group, shared between an app and its extensions.
    case appGroupUserDefaults(identifier: String)
    /// The platform key store: the Keychain on Apple platforms, the Secret Service on Linux.
    case keychain
    /// A file in a directory of the app's.
    case fileSystem(directory: FileDirectory)
    /// A file encrypted with authenticated encryption, in a directory of the app's.
    case encryptedFileSystem(directory: FileDirectory)
    /// A file in an app group's shared container.
    case appGroupFileSystem(identifier: String, directory: FileDirectory)
}

/// A directory values are stored in.
public enum FileDirectory: Hashable, Sendable, Codable {
    /// The user's documents (backed up).
    case documents
    /// Caches the system may remove.
    case caches
    /// A directory of the app's choosing.
    case custom(URL)
}

/// On which devices a key's value belongs.
public enum PlatformAvailability: String, Hashable, Sendable, Codable, CaseIterable {
    /// Every platform.
    case all
    /// The iPhone (and other non-watch platforms) only.
    case phoneOnly
    /// The Apple Watch only.
    case watchOnly
    /// The phone, synced to the paired watch.
    case phoneWithWatchSync
}

/// Whether, and how, a value is sent to the paired watch.
public enum SyncPolicy: String, Hashable, Sendable, Codable, CaseIterable {
    /// Never.
    case never
    /// When the app asks for it.
    case manual
    /// On every write, for values small enough for an application context.
    case automaticSmall
}
