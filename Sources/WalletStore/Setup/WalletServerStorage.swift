import Foundation
import CoreMetrics
import Logging
import NIOPosix
import Secrets
import SecretsAudit
import SecretsMetrics
import WalletServices

/// Where a provisioning server's data lives, opened: the database (migrated) and the encrypted secret store that
/// holds the pass types' signing keys.
///
/// With SQLite the secret store is an `Secrets/EncryptedFileBackend` in the data directory. With PostgreSQL it is
/// in the database (``PostgresSecretsBackend``), so that any number of replicas on one database sign with the same
/// keys; it is then unlocked by `COFFER_PASSPHRASE` or `COFFER_KEY_FILE`, the same on every replica.
///
/// Every access to the secret store is audited (`Secrets/AuditedSecretsStore`): counted in the metrics
/// (`coffer_secrets_accesses_total`), logged at `debug` (failures at `warning`), and with
/// `WalletServerConfiguration/secretsAuditFile` appended to a tamper-evident file.
///
/// `coffer serve` and `coffer admin` both open it from the same `WalletServerConfiguration`, so what one creates
/// the other sees. Call ``shutdown()`` when done.
public final class WalletServerStorage: Sendable {
    /// The configuration it was opened with.
    public let configuration: WalletServerConfiguration
    /// The database.
    public let database: WalletDatabase
    /// The records.
    public let repository: SQLWalletRepository
    /// The encrypted secret store with the signing keys, audited.
    public let secrets: AuditedSecretsStore
    /// The signing identities, loaded from ``secrets`` once each.
    public let identities: SigningIdentityCache
    private let closeSecrets: @Sendable () async -> Void

    private init(
        configuration: WalletServerConfiguration, database: WalletDatabase, secrets: AuditedSecretsStore,
        auditFile: AuditFileSink?, logger: Logger, closeSecrets: @escaping @Sendable () async -> Void = {}
    ) {
        self.configuration = configuration
        self.database = database
        self.repository = SQLWalletRepository(database: database)
        self.secrets = secrets
        self.identities = SigningIdentityCache(store: secrets)
        self.closeSecrets = {
            await closeSecrets()
            do {
                try auditFile?.close()
            } catch {
                logger.error(
                    "the secrets audit file is missing its last records", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Opens the storage over `database` and the secret store in `backend`, with the audit the configuration asks
    /// for; on failure nothing stays open but `database`.
    private static func make(
        configuration: WalletServerConfiguration, database: WalletDatabase, backend: any SecretsBackend,
        logger: Logger, metrics: (any MetricsFactory)?, closeSecrets: @escaping @Sendable () async -> Void = {}
    ) throws -> WalletServerStorage {
        let store = AggregateSecretsStore(backend: backend)
        var sinks: [any SecretsAuditSink] = [
            LoggingAuditSink(),
            MetricsAuditSink(factory: metrics),
        ]
        var auditFile: AuditFileSink?
        if let url = configuration.secretsAuditFile {
            do {
                auditFile = try AuditFileSink(url: url, keys: AuditKeyStore(store: store))
            } catch {
                throw WalletServerError.invalidConfiguration("the secrets audit file cannot be used: \(error)")
            }
            sinks.append(auditFile!)
            logger.info("secret store accesses are recorded", metadata: ["audit_file": "\(url.path)"])
        }
        return WalletServerStorage(
            configuration: configuration, database: database,
            secrets: AuditedSecretsStore(store, audit: SecretsAudit(sinks: sinks)), auditFile: auditFile,
            logger: logger, closeSecrets: closeSecrets)
    }

    /// Creates the data directory (mode 0700) if needed, unlocks (or creates) the secret store, opens the database
    /// and applies pending migrations.
    ///
    /// With PostgreSQL the migrations run first (each under the advisory lock ``SchemaMigrator`` takes, so replicas
    /// starting together migrate once), then the secret store in the database is opened: the first replica creates
    /// its header, the others unlock it.
    ///
    /// - Throws: `WalletServerError` for configuration and database failures (with PostgreSQL and no
    ///   `COFFER_PASSPHRASE` or `COFFER_KEY_FILE`, `WalletServerError/invalidConfiguration(_:)`), `SecretsError`
    ///   when the secret store cannot be unlocked (a wrong passphrase or key file) or reached.
    /// - Parameter metrics: where the secret store's access counts and timings go (the server's registry); `nil`:
    ///   the process's bootstrapped `MetricsSystem`.
    public static func open(
        configuration: WalletServerConfiguration, logger: Logger = Logger(label: "coffer.server"),
        metrics: (any MetricsFactory)? = nil
    ) async throws -> WalletServerStorage {
        try createDataDirectory(configuration.dataDirectory)
        restrict(configuration.dataDirectory, to: 0o700, logger: logger)
        if isPostgreSQL(configuration.effectiveDatabaseURL) {
            return try await openWithSecretsInDatabase(configuration: configuration, logger: logger, metrics: metrics)
        }
        if case .automatic = configuration.secretStoreKey, !configuration.createsDevelopmentIdentity {
            logger.warning(
                """
                the secret store is unlocked by the key file beside it: whoever copies the data directory has the \
                signing keys; set COFFER_PASSPHRASE or COFFER_KEY_FILE (kept elsewhere) in production
                """, metadata: ["key_file": "\(configuration.keyFileURL.path)"])
        }
        let backend = try openSecretStore(configuration: configuration, logger: logger)
        let database = try WalletDatabase.open(url: configuration.effectiveDatabaseURL, logger: logger)
        let storage: WalletServerStorage
        do {
            try await SchemaMigrator(database: database, logger: logger).migrate()
            storage = try make(
                configuration: configuration, database: database, backend: backend, logger: logger, metrics: metrics)
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
        return storage
    }

    /// Closes the database's connections (and the secret store's, when it is in the database).
    public func shutdown() async throws {
        await closeSecrets()
        try await database.shutdown()
    }

    /// Whether `url` names a PostgreSQL database.
    static func isPostgreSQL(_ url: String) -> Bool {
        url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")
    }

    /// Opens a PostgreSQL database, migrates it, and opens the secret store in it with the configured key.
    private static func openWithSecretsInDatabase(
        configuration: WalletServerConfiguration, logger: Logger, metrics: (any MetricsFactory)?
    ) async throws -> WalletServerStorage {
        let key: KeySource
        switch configuration.secretStoreKey {
        case .passphrase(let passphrase): key = .passphrase(passphrase)
        case .keyFile(let url): key = .keyFile(url)
        case .automatic:
            throw WalletServerError.invalidConfiguration(
                "with a PostgreSQL database the signing keys are kept in the database for every replica, and every "
                    + "replica needs the same store key: set COFFER_PASSPHRASE or COFFER_KEY_FILE (or "
                    + "--store-passphrase-file or --store-key-file); a key file made in one replica's data directory "
                    + "could not unlock the others")
        }
        let url = configuration.effectiveDatabaseURL
        let database = try WalletDatabase.open(url: url, logger: logger)
        do {
            try await SchemaMigrator(database: database, logger: logger).migrate()
            // Opening reads the header and derives the key (PBKDF2 for a passphrase): blocking work, kept off Swift
            // concurrency's threads.
            let backend = try await NIOThreadPool.singleton.runIfActive {
                try PostgresSecretsBackend(url: url, key: key, logger: logger)
            }
            logger.info("the secret store is in the database", metadata: ["store": "\(backend.location)"])
            do {
                return try make(
                    configuration: configuration, database: database, backend: backend, logger: logger,
                    metrics: metrics, closeSecrets: { await backend.close() })
            } catch {
                await backend.close()
                throw error
            }
        } catch {
            try? await database.shutdown()
            throw error
        }
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

    /// Opens the secret store with the configured key; with `WalletServerConfiguration/SecretStoreKey/automatic`,
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
