import Foundation

/// What happens, on the first launch after an app is installed, to the Keychain items an earlier installation left:
/// iOS keeps Keychain items when an app is deleted, so a reinstalled app finds the last user's tokens.
///
/// The guard keeps a marker, named for the app, in the app's own container, which is deleted with the app while the
/// Keychain is not. A missing marker alone proves nothing (the update that adopts the guard has none either), so the
/// guard takes an installation as fresh only when the container shows it too: made within
/// ``freshInstallationWindow`` and holding none of the app's files (Documents, Application Support, preferences).
/// With ``Policy/wipeOnFirstLaunch`` it then deletes the app's own items (every account of the ``Scope``s it is
/// given, nothing else), once; in every other case, and with ``Policy/keep`` (the default), it keeps them and
/// reports what it found. Where an app has no container of its own (Linux, macOS outside the App Sandbox) it never
/// wipes. Run it at launch, before anything reads or writes the store:
///
/// ```swift
/// let outcome = try ReinstallGuard(
///     policy: .wipeOnFirstLaunch, backend: keychain, scopes: [.init(service: "com.example.app")]
/// ).run()
/// ```
///
/// An access group other than the app's own is shared with sibling apps, whose users would lose what they share on
/// this app's fresh installation: the guard refuses to wipe one unless ``wipesSharedAccessGroups`` says so. An app
/// extension has a container of its own: run the guard from the app.
public struct ReinstallGuard: Sendable {
    /// What to do with items found on a fresh installation.
    public enum Policy: String, Hashable, Sendable, CaseIterable {
        /// Keep them: a reinstalled app finds what it stored before.
        case keep
        /// Delete them, once, on the first launch of a fresh installation.
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

        /// Whether the scope is the app's alone: the default group, or one named `<team>.<app identifier>`.
        func belongs(to appIdentifier: String) -> Bool {
            accessGroup.map { $0.hasSuffix("." + appIdentifier) } ?? true
        }
    }

    /// What the guard concluded about this launch.
    public enum Finding: String, Hashable, Sendable {
        /// The marker was there: the installation launched with the guard before.
        case launchedBefore
        /// No marker, a container made just now and holding none of the app's files: a fresh installation.
        case freshInstallation
        /// No marker, but the container is older than the window or holds the app's files: an update that adopts the
        /// guard (or a first launch long after the installation). Nothing is deleted.
        case updated
        /// No marker, and the app has no container of its own to tell by. Nothing is deleted.
        case undetermined
    }

    /// What a launch found.
    public struct Outcome: Hashable, Sendable {
        /// Whether this is the guard's first launch in this installation (no marker was found).
        public var isFirstLaunch: Bool
        /// What the guard concluded.
        public var finding: Finding
        /// How many items of the scopes were deleted.
        public var removedItems: Int
        /// How many items of the scopes were found and kept on a first launch.
        public var keptItems: Int

        /// Creates an outcome.
        public init(isFirstLaunch: Bool, finding: Finding, removedItems: Int, keptItems: Int) {
            self.isFirstLaunch = isFirstLaunch
            self.finding = finding
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

    /// What to do with items found on a fresh installation.
    public let policy: Policy
    /// The store the items are in.
    public let backend: any SecretsBackend
    /// The app's own items.
    public let scopes: [Scope]
    /// The app and its container.
    public let installation: Installation
    /// Whether scopes in access groups other than the app's own may be wiped (sibling apps lose what they share).
    public let wipesSharedAccessGroups: Bool
    /// How recently a container must have been made for its installation to count as fresh: an hour.
    public static let freshInstallationWindow: TimeInterval = 3600
    private let clock: any CofferClock

    /// Creates a guard for `installation` (this app's, by default).
    public init(
        policy: Policy = .keep, backend: any SecretsBackend, scopes: [Scope],
        installation: Installation = .current, wipesSharedAccessGroups: Bool = false,
        clock: any CofferClock = SystemClock()
    ) {
        self.policy = policy
        self.backend = backend
        self.scopes = scopes
        self.installation = installation
        self.wipesSharedAccessGroups = wipesSharedAccessGroups
        self.clock = clock
    }

    /// Checks the installation and writes the marker. On the first launch of a fresh installation it deletes the
    /// scopes' items (``Policy/wipeOnFirstLaunch``); on any other first launch it counts them and keeps them. Later
    /// launches do nothing.
    ///
    /// A wipe is marked as started before the first item is deleted and as done after the last: one that fails
    /// (a locked device) throws, and the next launch wipes again; a marker that cannot be written throws before
    /// anything is deleted.
    ///
    /// - Throws: ``SecretsError/unsupported(_:)`` before anything is deleted when a scope names a shared access
    ///   group without ``wipesSharedAccessGroups``; ``SecretsError/corruptData(_:)`` for a marker it cannot read.
    public func run() throws(SecretsError) -> Outcome {
        if policy == .wipeOnFirstLaunch, !wipesSharedAccessGroups,
            let shared = scopes.first(where: { !$0.belongs(to: installation.appIdentifier) })
        {
            throw .unsupported(
                "wiping the access group \(shared.accessGroup ?? "") deletes what other apps share: "
                    + "pass wipesSharedAccessGroups: true to mean it")
        }
        let marker = try readMarker()
        if marker == .installed {
            return Outcome(isFirstLaunch: false, finding: .launchedBefore, removedItems: 0, keptItems: 0)
        }
        let finding: Finding =
            marker == .wiping
            ? .freshInstallation
            : installation.finding(
                now: clock.now, window: Self.freshInstallationWindow)
        guard policy == .wipeOnFirstLaunch, finding == .freshInstallation else {
            let found = try SecretsError.catching {
                try scopes.reduce(0) {
                    $0 + (try backend.listAccounts(service: $1.service, accessGroup: $1.accessGroup).count)
                }
            }
            try write(.installed)
            return Outcome(isFirstLaunch: true, finding: finding, removedItems: 0, keptItems: found)
        }
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
        return Outcome(isFirstLaunch: true, finding: .freshInstallation, removedItems: removed, keptItems: 0)
    }

    private var markerURL: URL { installation.markerURL }

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
            try FileManager.default.createDirectory(
                at: markerURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((marker.rawValue + "\n").utf8).write(to: markerURL, options: .atomic)
        } catch {
            throw .unavailable("the installation marker at \(markerURL.path) cannot be written")
        }
    }
}
