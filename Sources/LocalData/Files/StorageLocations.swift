import Foundation
import Secrets

/// Where the file domains and app-group containers are on this machine.
///
/// On Apple platforms: the app's Documents and Caches directories, and an app group's container from
/// `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`.
///
/// On Linux, following the XDG Base Directory specification, for an application identifier `app`:
///
/// | | |
/// |---|---|
/// | ``FileDirectory/documents`` | `$XDG_DATA_HOME/app` (default `~/.local/share/app`) |
/// | ``FileDirectory/caches`` | `$XDG_CACHE_HOME/app` (default `~/.cache/app`) |
/// | app group `group` | `$XDG_DATA_HOME/app-groups/group` |
/// | `UserDefaults.standard` | `$XDG_CONFIG_HOME/<process name>.plist` (default `~/.config`) |
/// | an app group's defaults | `$XDG_CONFIG_HOME/group.plist` |
///
/// (Foundation writes the two property lists; ``UserDefaultsHelper`` flushes them after every change.)
public struct StorageLocations: Sendable {
    /// The application identifier directories are named after.
    public let applicationIdentifier: String
    private let environment: [String: String]
    private let appGroupContainer: @Sendable (String) -> URL?

    /// Locations for `applicationIdentifier` (the bundle identifier, or the process name when there is none).
    ///
    /// - Parameters:
    ///   - environment: Where the XDG variables and `HOME` are read on Linux (tests pass their own).
    ///   - appGroupContainer: Overrides how an app group's container is found (tests and non-sandboxed tools).
    public init(
        applicationIdentifier: String = StorageLocations.defaultApplicationIdentifier,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        appGroupContainer: (@Sendable (String) -> URL?)? = nil
    ) {
        self.applicationIdentifier = applicationIdentifier
        self.environment = environment
        if let appGroupContainer {
            self.appGroupContainer = appGroupContainer
        } else {
            #if canImport(Darwin)
                self.appGroupContainer = {
                    FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: $0)
                }
            #else
                let dataHome = Self.xdgDirectory("XDG_DATA_HOME", default: ".local/share", in: environment)
                self.appGroupContainer = {
                    dataHome.appending(path: "app-groups", directoryHint: .isDirectory)
                        .appending(path: $0, directoryHint: .isDirectory)
                }
            #endif
        }
    }

    /// The main bundle's identifier, or the process name.
    public static var defaultApplicationIdentifier: String {
        Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    }

    /// The directory `directory` names.
    public func url(for directory: FileDirectory) -> URL {
        switch directory {
        case .custom(let url):
            return url
        case .documents:
            #if canImport(Darwin)
                return URL.documentsDirectory
            #else
                return Self.xdgDirectory("XDG_DATA_HOME", default: ".local/share", in: environment)
                    .appending(path: applicationIdentifier, directoryHint: .isDirectory)
            #endif
        case .caches:
            #if canImport(Darwin)
                return URL.cachesDirectory
            #else
                return Self.xdgDirectory("XDG_CACHE_HOME", default: ".cache", in: environment)
                    .appending(path: applicationIdentifier, directoryHint: .isDirectory)
            #endif
        }
    }

    /// The directory `directory` names inside app group `identifier`'s container: the container itself for
    /// documents, `Library/Caches` in it for caches, and a custom URL's path taken relative to the container.
    ///
    /// - Throws: `invalidIdentifier` for an identifier that is not a plain name (`..`, `/`, control characters)
    ///   or a custom path that climbs out of the container; `unavailable` when the app is not in the group.
    public func url(for directory: FileDirectory, inAppGroup identifier: String) throws -> URL {
        try Self.validateAppGroup(identifier)
        guard let container = appGroupContainer(identifier) else {
            throw SecretsError.unavailable(
                "there is no container for the app group \(identifier): add it to the app's entitlements")
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

    private static func xdgDirectory(_ variable: String, default relative: String, in environment: [String: String])
        -> URL
    {
        if let value = environment[variable], value.hasPrefix("/") {
            return URL(filePath: value, directoryHint: .isDirectory)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(filePath: home, directoryHint: .isDirectory).appending(path: relative, directoryHint: .isDirectory)
    }
}
