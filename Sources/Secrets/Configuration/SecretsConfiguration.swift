import Foundation

/// Where and how a store keeps its secrets: the physical attributes shared by every item, and the local file
/// store's settings.
///
/// Build one in code, or with ``init(environment:)`` from the environment.
public struct SecretsConfiguration: Hashable, Sendable {
    /// The service name every item is stored under (the Keychain's `kSecAttrService`).
    public var service: String
    /// The access group items are shared through, or `nil` for the app's default group.
    public var accessGroup: String?
    /// Whether items may be synchronized over iCloud.
    public var synchronizable: Bool
    /// The baseline access policy of new items.
    public var accessPolicy: AccessPolicy
    /// How reads and writes of items that need the user may prompt, unless a read names its own context; `nil`:
    /// the platform's default (a prompt with the system's wording, for every access).
    public var authentication: AuthenticationContext?
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
        service: String = SecretsConfiguration.defaultService,
        accessGroup: String? = nil,
        synchronizable: Bool = false,
        accessPolicy: AccessPolicy = .defaultSyncableWhenUnlocked,
        authentication: AuthenticationContext? = nil,
        storeDirectory: URL = SecretsConfiguration.defaultStoreDirectory(),
        encryptionAlgorithm: EncryptionAlgorithm = .aes256GCM,
        diagnostics: [String] = []
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.accessPolicy = accessPolicy
        self.authentication = authentication
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
        return BaseDirectory.data.url(environment: environment)
            .appendingPathComponent("coffer/\(name)", isDirectory: true)
    }
}

extension SecretsConfiguration {
    /// The environment variables ``init(environment:)`` reads.
    public enum EnvironmentVariable {
        /// The service name.
        public static let service = "COFFER_SERVICE"
        /// The access group.
        public static let accessGroup = "COFFER_ACCESS_GROUP"
        /// `1`/`true`/`yes` or `0`/`false`/`no`.
        public static let synchronizable = "COFFER_SYNCHRONIZABLE"
        /// The local file store's directory.
        public static let storeDirectory = "COFFER_STORE_DIR"
        /// `aes-256-gcm` (default) or `chacha20-poly1305`.
        public static let cipher = "COFFER_CIPHER"
        /// The names earlier versions read, by the name that replaces each: still read, with a deprecation message,
        /// when the new name is unset.
        public static let deprecatedNames = [
            service: "KEYCHAIN_SERVICE", accessGroup: "KEYCHAIN_ACCESS_GROUP",
            synchronizable: "KEYCHAIN_SYNCHRONIZABLE",
        ]
    }

    /// Reads `COFFER_SERVICE`, `COFFER_ACCESS_GROUP`, `COFFER_SYNCHRONIZABLE`, `COFFER_STORE_DIR` and `COFFER_CIPHER`
    /// from `environment`. `KEYCHAIN_SERVICE`, `KEYCHAIN_ACCESS_GROUP` and `KEYCHAIN_SYNCHRONIZABLE` are still read
    /// when their `COFFER_` names are unset, each with a deprecation message in ``diagnostics``.
    ///
    /// Unset or empty variables keep their defaults. A value that cannot be used keeps the default too, and leaves a
    /// message in ``diagnostics``.
    public init(environment: [String: String]) {
        self.init(storeDirectory: Self.defaultStoreDirectory(environment: environment))
        var diagnostics: [String] = []
        func value(_ name: String) -> String? {
            if let value = EnvironmentValue.named(name, in: environment) { return value }
            guard let old = EnvironmentVariable.deprecatedNames[name],
                let value = EnvironmentValue.named(old, in: environment)
            else { return nil }
            diagnostics.append("\(old) is deprecated; set \(name) instead")
            return value
        }
        for (name, role) in [
            (EnvironmentVariable.service, "service name"), (EnvironmentVariable.accessGroup, "access group"),
        ] {
            guard let text = value(name) else { continue }
            do {
                try SecretPath.validate(name: text, role: role)
                if name == EnvironmentVariable.service { service = text } else { accessGroup = text }
            } catch {
                diagnostics.append("\(name): \(error)")
            }
        }
        if let flag = value(EnvironmentVariable.synchronizable) {
            switch flag.lowercased() {
            case "1", "true", "yes", "on": synchronizable = true
            case "0", "false", "no", "off": synchronizable = false
            default:
                diagnostics.append(
                    "\(EnvironmentVariable.synchronizable) is '\(flag)', which is not a boolean; using false")
            }
        }
        if let directory = value(EnvironmentVariable.storeDirectory) {
            let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            storeDirectory = URL(fileURLWithPath: directory, relativeTo: workingDirectory).standardizedFileURL
        }
        if let cipher = value(EnvironmentVariable.cipher) {
            if let algorithm = EncryptionAlgorithm(rawValue: cipher.lowercased()) {
                encryptionAlgorithm = algorithm
            } else {
                diagnostics.append(
                    "\(EnvironmentVariable.cipher) is '\(cipher)'; expected "
                        + EncryptionAlgorithm.allCases.map(\.rawValue).joined(separator: " or ")
                        + "; using \(encryptionAlgorithm.rawValue)")
            }
        }
        self.diagnostics = diagnostics
    }
}
