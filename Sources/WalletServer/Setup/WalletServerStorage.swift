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
        let backend = try openSecretStore(configuration: configuration, logger: logger)
        let secrets = AggregateSecretsStore(backend: backend)
        let database = try WalletDatabase.open(url: configuration.effectiveDatabaseURL, logger: logger)
        do {
            try await SchemaMigrator(database: database, logger: logger).migrate()
        } catch {
            try? await database.shutdown()
            throw error
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
