import Foundation

/// What happens, on the first launch after an app is installed, to the Keychain items an earlier installation left:
/// iOS keeps Keychain items when an app is deleted, so a reinstalled app finds the last user's tokens.
///
/// The guard tells a fresh installation by a marker file in the app's container, which is deleted with the app
/// while the Keychain is not. With ``Policy/wipeOnFirstLaunch`` it then deletes the app's own items (every account of
/// the ``Scope``s it is given, nothing else), once; with ``Policy/keep`` (the default) it only reports them. Run it
/// at launch, before anything reads the store:
///
/// ```swift
/// let outcome = try ReinstallGuard(
///     policy: .wipeOnFirstLaunch, backend: keychain, scopes: [.init(service: "com.example.app")]
/// ).run()
/// ```
///
/// The marker lives in ``defaultMarkerDirectory()`` (Application Support, which a backup restores together with the
/// Keychain's syncing items). An app extension has a container of its own: run the guard from the app, or give it a
/// directory in the app group's container that both share.
public struct ReinstallGuard: Sendable {
    /// What to do with items found on a fresh installation.
    public enum Policy: String, Hashable, Sendable, CaseIterable {
        /// Keep them: a reinstalled app finds what it stored before.
        case keep
        /// Delete them, once, on the first launch after an installation.
        case wipeOnFirstLaunch
    }

    /// Where the app's items live: a service in an access group (`nil`: the app's default group).
    public struct Scope: Hashable, Sendable {
        /// The service.
        public var service: String
        /// The access group, or `nil` for the default one.
        public var accessGroup: String?

        /// Creates a scope.
        public init(service: String, accessGroup: String? = nil) {
            self.service = service
            self.accessGroup = accessGroup
        }

        /// The scope of a store's configuration.
        public init(_ configuration: SecretsConfiguration) {
            self.init(service: configuration.service, accessGroup: configuration.accessGroup)
        }
    }

    /// What a launch found.
    public struct Outcome: Hashable, Sendable {
        /// Whether this is the first launch of this installation (no marker was found).
        public var isFirstLaunch: Bool
        /// How many items of the scopes were deleted.
        public var removedItems: Int
        /// How many items of the scopes an earlier installation left and were kept (``Policy/keep``).
        public var keptItems: Int

        /// Creates an outcome.
        public init(isFirstLaunch: Bool, removedItems: Int, keptItems: Int) {
            self.isFirstLaunch = isFirstLaunch
            self.removedItems = removedItems
            self.keptItems = keptItems
        }
    }

    /// What the marker says.
    private enum Marker: String {
        /// A wipe started and did not finish: the next launch wipes again.
        case wiping
        /// The installation has launched.
        case installed
    }

    /// The marker file's name.
    static let markerName = "installation"

    /// What to do with items found on a fresh installation.
    public let policy: Policy
    /// The store the items are in.
    public let backend: any SecretsBackend
    /// The app's own items.
    public let scopes: [Scope]
    /// The directory of the marker file.
    public let markerDirectory: URL

    /// Creates a guard.
    public init(
        policy: Policy = .keep, backend: any SecretsBackend, scopes: [Scope],
        markerDirectory: URL = ReinstallGuard.defaultMarkerDirectory()
    ) {
        self.policy = policy
        self.backend = backend
        self.scopes = scopes
        self.markerDirectory = markerDirectory
    }

    /// `Application Support/Coffer/installation` on Apple platforms (`$XDG_DATA_HOME/coffer/installation` elsewhere).
    public static func defaultMarkerDirectory() -> URL {
        SecretsConfiguration.dataDirectory(named: "installation")
    }

    /// Checks the installation: on its first launch, deletes the scopes' items (``Policy/wipeOnFirstLaunch``) or
    /// counts them (``Policy/keep``), then writes the marker. Later launches do nothing.
    ///
    /// A wipe is marked as started before the first item is deleted and as done after the last: one that fails
    /// (a locked device) throws, and the next launch wipes again; a marker that cannot be written throws before
    /// anything is deleted.
    public func run() throws(SecretsError) -> Outcome {
        let marker = try readMarker()
        if marker == .installed { return Outcome(isFirstLaunch: false, removedItems: 0, keptItems: 0) }
        switch policy {
        case .keep:
            let found = try SecretsError.catching {
                try scopes.reduce(0) {
                    $0 + (try backend.listAccounts(service: $1.service, accessGroup: $1.accessGroup).count)
                }
            }
            try write(.installed)
            return Outcome(isFirstLaunch: true, removedItems: 0, keptItems: found)
        case .wipeOnFirstLaunch:
            try write(.wiping)
            var removed = 0
            try SecretsError.catching {
                for scope in scopes {
                    for account in try backend.listAccounts(service: scope.service, accessGroup: scope.accessGroup) {
                        let query = SecretQuery<Data>(
                            service: scope.service, account: account, accessGroup: scope.accessGroup)
                        if try backend.delete(query) { removed += 1 }
                    }
                }
            }
            try write(.installed)
            return Outcome(isFirstLaunch: true, removedItems: removed, keptItems: 0)
        }
    }

    private var markerURL: URL { markerDirectory.appendingPathComponent(Self.markerName) }

    private func readMarker() throws(SecretsError) -> Marker? {
        guard FileManager.default.fileExists(atPath: markerURL.path) else { return nil }
        guard let data = try? Data(contentsOf: markerURL) else {
            throw .unavailable("the installation marker at \(markerURL.path) cannot be read")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let marker = Marker(rawValue: text) else {
            throw .corruptData("the installation marker at \(markerURL.path)")
        }
        return marker
    }

    private func write(_ marker: Marker) throws(SecretsError) {
        do {
            try FileManager.default.createDirectory(at: markerDirectory, withIntermediateDirectories: true)
            try Data((marker.rawValue + "\n").utf8).write(to: markerURL, options: .atomic)
        } catch {
            throw .unavailable("the installation marker at \(markerURL.path) cannot be written")
        }
    }
}
