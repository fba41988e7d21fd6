import Foundation
import Secrets

/// Where the file domains, LocalData's own files and app-group containers are on this machine.
///
/// On Apple platforms (``Platform/apple(_:)``), for an application identifier `app`:
///
/// | | |
/// |---|---|
/// | ``FileDirectory/documents`` | the app's Documents directory (backed up, visible to the user in Files) |
/// | ``FileDirectory/caches`` | `Library/Caches/app` (namespaced: a non-sandboxed Mac process shares `~/Library/Caches`) |
/// | ``internalDataDirectory`` (the keychain overflow store) | `Library/Application Support/app` |
/// | app group `group` | `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`, once a directory was created and written there |
///
/// macOS answers `containerURL(forSecurityApplicationGroupIdentifier:)` with a path even for a group the app is not
/// in; a container counts only once a probe file could be written in it (then it is remembered). Earlier versions
/// kept the keychain overflow store under Documents; ``StorageRouter`` moves it on first use
/// (``moveLegacyKeychainOverflowStore()``).
///
/// On Linux (``Platform/xdg``), following the XDG Base Directory specification:
///
/// | | |
/// |---|---|
/// | ``FileDirectory/documents`` and ``internalDataDirectory`` | `$XDG_DATA_HOME/app` (default `~/.local/share/app`) |
/// | ``FileDirectory/caches`` | `$XDG_CACHE_HOME/app` (default `~/.cache/app`) |
/// | app group `group` | `$XDG_DATA_HOME/app-groups/group` |
/// | `UserDefaults.standard` | `$XDG_CONFIG_HOME/<process name>.plist` (default `~/.config`) |
/// | an app group's defaults | `$XDG_CONFIG_HOME/group.plist` |
///
/// (Foundation writes the two property lists; ``DefaultsValueStore`` flushes them after every change.)
public struct StorageLocations: Sendable {
    /// The directory conventions of a platform.
    public enum Platform: Sendable {
        /// Apple platforms: the user domain's directories and the app-group container lookup.
        case apple(AppleDirectories)
        /// Linux: the XDG Base Directory specification, read from the environment.
        case xdg
    }

    /// The user domain's directories on an Apple platform (``Platform/current`` reads the system's; tests give
    /// their own).
    public struct AppleDirectories: Sendable {
        /// The app's Documents directory.
        public var documents: URL
        /// The app's Application Support directory.
        public var applicationSupport: URL
        /// The app's Caches directory.
        public var caches: URL
        /// `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`.
        public var appGroupContainer: @Sendable (String) -> URL?

        /// Directories at these places.
        public init(
            documents: URL, applicationSupport: URL, caches: URL,
            appGroupContainer: @escaping @Sendable (String) -> URL?
        ) {
            self.documents = documents
            self.applicationSupport = applicationSupport
            self.caches = caches
            self.appGroupContainer = appGroupContainer
        }
    }

    /// The application identifier directories are named after.
    public let applicationIdentifier: String
    /// The conventions followed.
    public let platform: Platform
    private let environment: [String: String]
    private let appGroupContainer: (@Sendable (String) -> URL?)?
    /// App groups whose container passed the write probe.
    private let usableGroups = Locked(Set<String>())

    /// Locations for `applicationIdentifier` (the bundle identifier, or the process name when there is none).
    ///
    /// - Parameters:
    ///   - environment: Where the XDG variables and `HOME` are read on Linux (tests pass their own).
    ///   - appGroupContainer: Overrides how an app group's container is found (tests and non-sandboxed tools); its
    ///     answer is used as it is.
    ///   - platform: The directory conventions; ``Platform/current`` unless given (tests inject one).
    public init(
        applicationIdentifier: String = StorageLocations.defaultApplicationIdentifier,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        appGroupContainer: (@Sendable (String) -> URL?)? = nil,
        platform: Platform = .current
    ) {
        self.applicationIdentifier = applicationIdentifier
        self.environment = environment
        self.appGroupContainer = appGroupContainer
        self.platform = platform
    }

    /// The main bundle's identifier, or the process name.
    public static var defaultApplicationIdentifier: String {
        Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    }

    /// The directory `directory` names.
    public func url(for directory: FileDirectory) -> URL {
        switch (directory, platform) {
        case (.custom(let url), _):
            return url
        case (.documents, .apple(let apple)):
            return apple.documents
        case (.caches, .apple(let apple)):
            return apple.caches.appending(path: applicationIdentifier, directoryHint: .isDirectory)
        case (.documents, .xdg):
            return xdgDataDirectory
        case (.caches, .xdg):
            return BaseDirectory.cache.url(environment: environment)
                .appending(path: applicationIdentifier, directoryHint: .isDirectory)
        }
    }

    /// Where LocalData keeps files of its own, such as the keychain overflow store: Application Support/<app> on
    /// Apple platforms (never the user's Documents), `$XDG_DATA_HOME/<app>` on Linux.
    public var internalDataDirectory: URL {
        switch platform {
        case .apple(let apple):
            return apple.applicationSupport.appending(path: applicationIdentifier, directoryHint: .isDirectory)
        case .xdg:
            return xdgDataDirectory
        }
    }

    /// The keychain overflow store: values too large for the keychain, encrypted under a key kept in the keychain
    /// (`LocalData/keychain-overflow` in ``internalDataDirectory``).
    public var keychainOverflowDirectory: URL {
        internalDataDirectory.appending(
            path: "\(FileValueStore.folderName)/keychain-overflow", directoryHint: .isDirectory)
    }

    /// Moves a keychain overflow store that an earlier version kept under Documents to ``keychainOverflowDirectory``,
    /// so that an app upgrading keeps its large keychain values. Does nothing when there is no such store, or where
    /// both places are one (Linux).
    ///
    /// - Returns: Whether a store was moved.
    /// - Throws: `io` when the move fails, and `unavailable` when both places hold a store (neither is touched:
    ///   merging them could not tell which copy of a value is current).
    @discardableResult
    public func moveLegacyKeychainOverflowStore() throws(SecretsError) -> Bool {
        let legacy = url(for: .documents).appending(
            path: "\(FileValueStore.folderName)/keychain-overflow", directoryHint: .isDirectory)
        let current = keychainOverflowDirectory
        let files = FileManager.default
        guard legacy.standardizedFileURL.path != current.standardizedFileURL.path,
            files.fileExists(atPath: legacy.path)
        else { return false }
        guard !files.fileExists(atPath: current.path) else {
            throw .unavailable(
                "a keychain overflow store exists both at \(legacy.path) (an earlier version's) and at "
                    + "\(current.path); keep the one that holds the app's data and delete the other")
        }
        do {
            try files.createDirectory(at: current.deletingLastPathComponent(), withIntermediateDirectories: true)
            try files.moveItem(at: legacy, to: current)
        } catch {
            throw .io(operation: "move the keychain overflow store to", path: current.path, code: EIO)
        }
        return true
    }

    private var xdgDataDirectory: URL {
        BaseDirectory.data.url(environment: environment)
            .appending(path: applicationIdentifier, directoryHint: .isDirectory)
    }

    /// App group `identifier`'s container, or `nil` when the app is not in the group.
    private func container(forAppGroup identifier: String) -> URL? {
        if let appGroupContainer { return appGroupContainer(identifier) }
        switch platform {
        case .xdg:
            return BaseDirectory.data.url(environment: environment)
                .appending(path: "app-groups", directoryHint: .isDirectory)
                .appending(path: identifier, directoryHint: .isDirectory)
        case .apple(let apple):
            guard let url = apple.appGroupContainer(identifier) else { return nil }
            if usableGroups.withLock({ $0.contains(identifier) }) { return url }
            guard Self.isUsableDirectory(url) else { return nil }
            usableGroups.withLock { _ = $0.insert(identifier) }
            return url
        }
    }

    /// Whether `url` is a directory this process can create and write in (a probe file, removed at once).
    static func isUsableDirectory(_ url: URL) -> Bool {
        let probe = url.appending(path: ".coffer-probe-\(UUID().uuidString)", directoryHint: .notDirectory)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data().write(to: probe)
            try FileManager.default.removeItem(at: probe)
            return true
        } catch {
            return false
        }
    }

    /// The directory `directory` names inside app group `identifier`'s container: the container itself for
    /// documents, `Library/Caches` in it for caches, and a custom URL's path taken relative to the container.
    ///
    /// - Throws: `invalidIdentifier` for an identifier that is not a plain name (`..`, `/`, control characters)
    ///   or a custom path that climbs out of the container; `unavailable` when the app is not in the group (on
    ///   Apple platforms: no container, or one the write probe failed in).
    public func url(for directory: FileDirectory, inAppGroup identifier: String) throws -> URL {
        try Self.validateAppGroup(identifier)
        guard let container = container(forAppGroup: identifier) else {
            throw SecretsError.unavailable(
                "there is no usable container for the app group \(identifier) (none, or one this process cannot "
                    + "write to): add the group to the app's App Groups entitlement")
        }
        switch directory {
        case .documents:
            return container
        case .caches:
            return container.appending(path: "Library/Caches", directoryHint: .isDirectory)
        case .custom(let url):
            let components = url.relativePath.split(separator: "/")
            guard !components.isEmpty, !components.contains(where: { $0 == ".." || $0 == "." }) else {
                throw SecretsError.invalidIdentifier(
                    url.relativePath, reason: "a directory in an app group's container must stay inside it")
            }
            return container.appending(path: components.joined(separator: "/"), directoryHint: .isDirectory)
        }
    }

    /// Checks that an app group identifier is a plain name usable as a directory or defaults suite name.
    public static func validateAppGroup(_ identifier: String) throws {
        try SecretPath.validate(name: identifier, role: "app group identifier")
        guard !identifier.contains("/"), identifier != ".", identifier != ".." else {
            throw SecretsError.invalidIdentifier(identifier, reason: "an app group identifier is a name, not a path")
        }
    }
}
