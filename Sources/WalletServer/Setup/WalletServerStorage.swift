import Foundation
import Logging
import Secrets

/// Where a provisioning server's data lives, opened: the database (migrated) and the encrypted secret store that
/// holds the pass types' signing keys.
///
/// `coffer serve` and `coffer admin` both open it from the same ``WalletServerConfiguration``, so what one creates
/// the other sees. Call ``shutdown()`` when done.
public final class WalletServerStorage: Sendable {
    /// The configuration it was opened with.
    public let configuration: WalletServerConfiguration
    /// The database.
    public let database: WalletDatabase
    /// The records.
    public let repository: SQLWalletRepository
    /// The encrypted secret store with the signing keys.
    public let secrets: AggregateSecretsStore
    /// The signing identities, loaded from ``secrets`` once each.
    public let identities: SigningIdentityCache

    private init(configuration: WalletServerConfiguration, database: WalletDatabase, secrets: AggregateSecretsStore) {
        self.configuration = configuration
        self.database = database
        self.repository = SQLWalletRepository(database: database)
        self.secrets = secrets
        self.identities = SigningIdentityCache(store: secrets)
    }

    /// Creates the data directory (mode 0700) if needed, unlocks (or creates) the secret store, opens the database
    /// and applies pending migrations.
    ///
    /// - Throws: ``WalletServerError`` for configuration and database failures, `SecretsError` when the secret store
    ///   cannot be unlocked (a wrong passphrase or key file).
    public static func open(
        configuration: WalletServerConfiguration, logger: Logger = Logger(label: "coffer.server")
    ) async throws -> WalletServerStorage {
        try createDataDirectory(configuration.dataDirectory)
        restrict(configuration.dataDirectory, to: 0o700, logger: logger)
        if case .automatic = configuration.secretStoreKey, !configuration.createsDevelopmentIdentity {
            logger.warning(
                """
                the secret store is unlocked by the key file beside it: whoever copies the data directory has the \
                signing keys; set COFFER_PASSPHRASE or COFFER_KEY_FILE (kept elsewhere) in production
                """, metadata: ["key_file": "\(configuration.keyFileURL.path)"])
        }
        let backend = try openSecretStore(configuration: configuration, logger: logger)
        let secrets = AggregateSecretsStore(backend: backend)
        let database = try WalletDatabase.open(url: configuration.effectiveDatabaseURL, logger: logger)
        do {
            try await SchemaMigrator(database: database, logger: logger).migrate()
        } catch {
            try? await database.shutdown()
            throw error
        }
        if let path = WalletDatabase.sqliteFilePath(of: configuration.effectiveDatabaseURL) {
            // SQLite makes its files with the process's umask (often 0644): the database holds token hashes and
            // binding data, for the owner only.
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                restrict(URL(fileURLWithPath: path + suffix), to: 0o600, logger: logger)
            }
        }
        return WalletServerStorage(configuration: configuration, database: database, secrets: secrets)
    }

    /// Closes the database's connections.
    public func shutdown() async throws {
        try await database.shutdown()
    }

    private static func createDataDirectory(_ directory: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw WalletServerError.invalidConfiguration("cannot create the data directory \(directory.path)")
        }
    }

    /// Takes group and other permissions away from `url` when it has any (mode `mode`), and warns when another user
    /// owns it (that user can read it whatever its mode).
    static func restrict(_ url: URL, to mode: Int, logger: Logger) {
        let files = FileManager.default
        // attributesOfItem does not follow a symbolic link: a link is judged, and changed, as itself.
        guard let attributes = try? files.attributesOfItem(atPath: url.path),
            let current = (attributes[.posixPermissions] as? NSNumber)?.intValue
        else { return }
        if let owner = (attributes[.ownerAccountID] as? NSNumber)?.uint32Value, owner != geteuid() {
            logger.warning(
                "another user owns this file or directory of the server's data", metadata: ["path": "\(url.path)"])
        }
        guard current & 0o777 & ~mode != 0 else { return }
        do {
            try files.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
            logger.notice(
                "restricted the permissions of the server's data to its owner",
                metadata: [
                    "path": "\(url.path)", "from": "\(String(current & 0o777, radix: 8))",
                    "to": "\(String(mode, radix: 8))",
                ])
        } catch {
            logger.warning(
                "the server's data is readable by other users and its permissions could not be changed",
                metadata: ["path": "\(url.path)", "mode": "\(String(current & 0o777, radix: 8))"])
        }
    }

    /// Opens the secret store with the configured key; with ``WalletServerConfiguration/SecretStoreKey/automatic``,
    /// uses the data directory's key file, creating it for a new store.
    private static func openSecretStore(configuration: WalletServerConfiguration, logger: Logger) throws
        -> EncryptedFileBackend
    {
        let directory = configuration.secretStoreDirectory
        let key: KeySource
        switch configuration.secretStoreKey {
        case .passphrase(let passphrase):
            key = .passphrase(passphrase)
        case .keyFile(let url):
            key = .keyFile(url)
        case .automatic:
            let keyFile = configuration.keyFileURL
            let storeExists = FileManager.default.fileExists(
                atPath: directory.appendingPathComponent("store.json").path)
            if !FileManager.default.fileExists(atPath: keyFile.path) {
                guard !storeExists else { throw WalletServerError.secretStoreKeyMissing(directory: directory.path) }
                do {
                    try EncryptedFileBackend.createKeyFile(at: keyFile)
                    logger.notice(
                        "created a key file for the secret store; it unlocks the signing keys, so back it up",
                        metadata: ["key_file": "\(keyFile.path)"])
                } catch SecretsError.io(_, _, let code) where code == EEXIST {
                    // Another process (`coffer admin` beside `coffer serve`) created it first: use theirs.
                }
            }
            key = .keyFile(keyFile)
        }
        return try EncryptedFileBackend(directory: directory, key: key, options: .init(createIfMissing: true))
    }
}
