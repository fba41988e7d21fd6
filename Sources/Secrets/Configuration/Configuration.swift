import Foundation

/// Where and how a store keeps its secrets: the physical attributes shared by every item, and the local file
/// store's settings.
///
/// Build one in code, or with ``SecretsConfig/resolve(environment:)`` from the environment.
public struct Configuration: Hashable, Sendable {
    /// The service name every item is stored under (the Keychain's `kSecAttrService`).
    public var service: String
    /// The access group items are shared through, or `nil` for the app's default group.
    public var accessGroup: String?
    /// Whether items may be synchronized over iCloud.
    public var synchronizable: Bool
    /// The baseline access policy of new items.
    public var accessPolicy: AccessPolicy
    /// The directory of the local file store.
    public var storeDirectory: URL
    /// The cipher the encrypted file store uses for new items.
    public var encryptionAlgorithm: EncryptionAlgorithm
    /// Problems found while resolving the configuration (for example an unreadable boolean); reported by
    /// ``SecretsPreflight`` and the `coffer` command rather than thrown, so that resolution itself never fails.
    public var diagnostics: [String]

    /// The service name used when none is configured.
    public static let defaultService = "coffer"

    /// Creates a configuration.
    public init(
        service: String = Configuration.defaultService,
        accessGroup: String? = nil,
        synchronizable: Bool = false,
        accessPolicy: AccessPolicy = .defaultSyncableWhenUnlocked,
        storeDirectory: URL = Configuration.defaultStoreDirectory(),
        encryptionAlgorithm: EncryptionAlgorithm = .aes256GCM,
        diagnostics: [String] = []
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.accessPolicy = accessPolicy
        self.storeDirectory = storeDirectory
        self.encryptionAlgorithm = encryptionAlgorithm
        self.diagnostics = diagnostics
    }

    /// The default directory of the local file store: `$XDG_DATA_HOME/coffer/secrets`, else
    /// `~/.local/share/coffer/secrets` (on Apple platforms, `Application Support/Coffer/secrets`).
    public static func defaultStoreDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        dataDirectory(named: "secrets", environment: environment)
    }

    /// A folder of Coffer's in the user's data directory: `$XDG_DATA_HOME/coffer/<name>`, else
    /// `~/.local/share/coffer/<name>` (on Apple platforms, `Application Support/Coffer/<name>`).
    public static func dataDirectory(
        named name: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        #if canImport(Darwin)
            let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            if let support { return support.appendingPathComponent("Coffer/\(name)", isDirectory: true) }
        #endif
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return URL(fileURLWithPath: dataHome).appendingPathComponent("coffer/\(name)", isDirectory: true)
        }
        // `NSHomeDirectory()` rather than `homeDirectoryForCurrentUser`, which iOS, watchOS and tvOS lack.
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
        return home.appendingPathComponent(".local/share/coffer/\(name)", isDirectory: true)
    }
}

/// Resolves a ``Configuration`` from the environment: configuration as the source of truth.
public enum SecretsConfig {
    /// The environment variables ``resolve(environment:)`` reads.
    public enum Variable {
        /// The service name.
        public static let service = "KEYCHAIN_SERVICE"
        /// The access group.
        public static let accessGroup = "KEYCHAIN_ACCESS_GROUP"
        /// `1`/`true`/`yes` or `0`/`false`/`no`.
        public static let synchronizable = "KEYCHAIN_SYNCHRONIZABLE"
        /// The local file store's directory.
        public static let storeDirectory = "COFFER_STORE_DIR"
        /// `aes-256-gcm` (default) or `chacha20-poly1305`.
        public static let cipher = "COFFER_CIPHER"
    }

    /// Reads `KEYCHAIN_SERVICE`, `KEYCHAIN_ACCESS_GROUP`, `KEYCHAIN_SYNCHRONIZABLE`, `COFFER_STORE_DIR` and
    /// `COFFER_CIPHER`.
    ///
    /// Unset or empty variables keep their defaults. A value that cannot be used keeps the default too, and
    /// leaves a message in ``Configuration/diagnostics``.
    public static func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Configuration {
        var configuration = Configuration(storeDirectory: Configuration.defaultStoreDirectory(environment: environment))
        func value(_ name: String) -> String? {
            guard let raw = environment[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }
        if let service = value(Variable.service) {
            configuration.service = service
        }
        configuration.accessGroup = value(Variable.accessGroup)
        if let flag = value(Variable.synchronizable) {
            switch flag.lowercased() {
            case "1", "true", "yes", "on": configuration.synchronizable = true
            case "0", "false", "no", "off": configuration.synchronizable = false
            default:
                configuration.diagnostics.append(
                    "\(Variable.synchronizable) is '\(flag)', which is not a boolean; using false")
            }
        }
        if let directory = value(Variable.storeDirectory) {
            configuration.storeDirectory =
                URL(
                    fileURLWithPath: directory,
                    relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
                ).standardizedFileURL
        }
        if let cipher = value(Variable.cipher) {
            if let algorithm = EncryptionAlgorithm(rawValue: cipher.lowercased()) {
                configuration.encryptionAlgorithm = algorithm
            } else {
                configuration.diagnostics.append(
                    "\(Variable.cipher) is '\(cipher)'; expected "
                        + EncryptionAlgorithm.allCases.map(\.rawValue).joined(separator: " or ")
                        + "; using \(configuration.encryptionAlgorithm.rawValue)")
            }
        }
        for (name, role) in [(Variable.service, "service name"), (Variable.accessGroup, "access group")] {
            guard let text = value(name) else { continue }
            do {
                try SecretPath.validate(name: text, role: role)
            } catch {
                configuration.diagnostics.append("\(name): \(error)")
            }
        }
        return configuration
    }
}
