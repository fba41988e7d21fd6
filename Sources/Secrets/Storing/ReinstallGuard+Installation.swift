import Foundation

extension ReinstallGuard {
    /// An app as the guard sees it: the identifier that names its marker (so two apps never share one) and the
    /// container that is deleted with it, if it has one.
    public struct Installation: Hashable, Sendable {
        /// The app's identifier (its bundle identifier).
        public var appIdentifier: String
        /// The app's own data container, deleted with the app; `nil` where apps have none (Linux, macOS outside the
        /// App Sandbox), and then the guard never takes a launch for a fresh installation.
        public var container: URL?

        /// An app with `appIdentifier` whose container is `container`.
        public init(appIdentifier: String, container: URL?) {
            self.appIdentifier = appIdentifier
            self.container = container
        }

        /// This process's app: its bundle identifier (the process name without one) and, on iOS, tvOS, watchOS,
        /// visionOS and in macOS's App Sandbox, its container (the home directory there).
        public static var current: Installation {
            let identifier = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
            let home = URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
            #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
                return Installation(appIdentifier: identifier, container: home)
            #elseif os(macOS)
                let sandboxed = ProcessInfo.processInfo.environment["APP_SANDBOX_CONTAINER_ID"] != nil
                return Installation(appIdentifier: identifier, container: sandboxed ? home : nil)
            #else
                return Installation(appIdentifier: identifier, container: nil)
            #endif
        }

        /// `Library/Application Support/Coffer/installation/<app>.installation` in the container, or in Coffer's
        /// data directory (``SecretsConfiguration/dataDirectory(named:environment:)``) without one.
        var markerURL: URL {
            let directory =
                container?.appendingPathComponent("Library/Application Support/Coffer/installation", isDirectory: true)
                ?? SecretsConfiguration.dataDirectory(named: "installation")
            let name = String(
                appIdentifier.unicodeScalars.map { scalar in
                    scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "-_".unicodeScalars.contains(scalar)
                        || scalar == "." ? Character(scalar) : "_"
                })
            return directory.appendingPathComponent("app-" + name + ".installation")
        }

        /// What the container says of a launch without a marker: fresh only when it was made within `window` of
        /// `now` and holds none of the app's files; when in doubt, not fresh.
        func finding(now: Date, window: TimeInterval) -> Finding {
            guard let container else { return .undetermined }
            let files = FileManager.default
            let made = [
                container, container.appendingPathComponent("Library"), container.appendingPathComponent("Documents"),
            ]
            .compactMap { (try? files.attributesOfItem(atPath: $0.path))?[.creationDate] as? Date }.min()
            guard let made, (-60..<window).contains(now.timeIntervalSince(made)) else { return .updated }
            let support = container.appendingPathComponent("Library/Application Support")
            let appFiles =
                entries(in: container.appendingPathComponent("Documents"))
                + entries(in: container.appendingPathComponent("Library/Preferences"))
                + entries(in: support).filter { $0 != "Coffer" }
                + entries(in: support.appendingPathComponent("Coffer")).filter { $0 != "installation" }
            return appFiles.isEmpty ? .freshInstallation : .updated
        }

        /// The names in `directory`: none when it does not exist, one that stands for "unknown" when it cannot be
        /// listed.
        private func entries(in directory: URL) -> [String] {
            guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
            return (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? ["(unreadable)"]
        }
    }
}
