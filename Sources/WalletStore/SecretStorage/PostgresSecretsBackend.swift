import Foundation
import Logging
import Secrets
import WalletServices

/// A secret store in PostgreSQL: the encrypted file store's header and sealed items, in rows, so that every
/// replica of a server on one database reads and writes the same signing keys.
///
/// The rows are sealed exactly as `Secrets/EncryptedFileBackend` seals its files (same header, same item format,
/// same code): the database never sees a key or a value in the clear, only wrapped keys, ciphertext and keyed hashes
/// of the items' names. The store key (a passphrase or a key file, the same on every replica) unwraps the master
/// key. The first process to open an empty database creates the header; later ones, on any machine, unlock it.
///
/// The tables come from the server's schema migrations (`secret_store_header`, `secret_items`): open the
/// ``WalletDatabase`` and run ``SchemaMigrator`` first, as ``WalletServerStorage`` does.
///
/// Calls block until the database answers, at most `timeout` each, and throw `SecretsError.unavailable` when it
/// does not (never hang). Do not call them on an event loop (they refuse to); from Swift concurrency, prefer a
/// thread of `NIOThreadPool.singleton`, as `SigningIdentityCache` does. Key rotation and re-keying are not
/// offered for this backend yet. Call ``close()`` when done.
public final class PostgresSecretsBackend: SecretsBackend {
    private let storage: PostgresSecretStorage
    private let backend: SealedRowBackend

    /// Opens (creating when allowed and missing) the secret store in the PostgreSQL database at `url` with `key`.
    ///
    /// This blocks while it reads the header and derives the key (PBKDF2 for a passphrase): call it off the event
    /// loops and, from Swift concurrency, off the cooperative pool.
    ///
    /// - Parameters:
    ///   - url: `postgres://user:password@host:port/database`; TLS is required for a host other than this machine
    ///     unless the URL names an `sslmode`.
    ///   - key: What unlocks the store; every process that opens it needs the same.
    ///   - options: As for the encrypted file store (`createIfMissing`, cipher, PBKDF2 iterations, largest value).
    ///   - timeout: How long each statement (and the wait for a connection) may take.
    /// - Throws: `SecretsError.wrongPassphrase` / `wrongKey` when `key` does not unlock the store (the errors the
    ///   file store throws), `corruptData` for a damaged header, `unavailable` when the database cannot be reached
    ///   or lacks the tables; `WalletServerError/invalidDatabaseURL(_:)` for a URL that is not PostgreSQL's.
    public init(
        url: String, key: KeySource, options: EncryptedFileBackend.Options = .init(),
        timeout: Duration = .seconds(10), logger: Logger = Logger(label: "coffer.secrets")
    ) throws {
        let storage = try PostgresSecretStorage(url: url, timeout: timeout, logger: logger)
        // When this throws, the storage goes away and shuts its connection pool down.
        backend = try SealedRowBackend(storage: storage, key: key, options: options, logger: logger)
        self.storage = storage
    }

    /// Where the store is, for messages: the database and its host (never the password).
    package var location: String { storage.location }

    /// Closes the store's connections; afterwards every call throws `SecretsError.unavailable`.
    public func close() async {
        await storage.close()
    }

    // MARK: SecretsBackend

    /// Encrypts `data` and stores it in the item's row.
    public func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws {
        try backend.save(data, for: query)
    }

    /// Reads and decrypts the item's row.
    ///
    /// - Throws: `SecretsError.authenticationFailed` when the row was modified or copied from another item's.
    public func read<Value>(_ query: SecretQuery<Value>) throws -> Data? {
        try backend.read(query)
    }

    /// Removes the item's row.
    @discardableResult
    public func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool {
        try backend.delete(query)
    }

    /// The sorted accounts of `service` in `accessGroup`; rows that fail authentication are skipped and logged.
    public func listAccounts(service: String, accessGroup: String?) throws -> [String] {
        try backend.listAccounts(service: service, accessGroup: accessGroup)
    }
}
