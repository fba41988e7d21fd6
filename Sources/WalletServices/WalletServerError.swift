import Foundation

/// The errors of the `WalletServer` module.
public enum WalletServerError: Error, Hashable, Sendable {
    /// `DATABASE_URL` (or `--database-url`) is not a usable database address.
    case invalidDatabaseURL(String)
    /// The database cannot be reached or stopped answering.
    case databaseUnavailable(String)
    /// The database holds a schema newer than this server knows.
    case schemaTooNew(found: Int, known: Int)
    /// A record with the same unique key exists.
    case conflict(String)
    /// A referenced record does not exist.
    case notFound(String)
    /// Stored data cannot be read back.
    case corruptRecord(String)
    /// A value given to an operation is not acceptable (an empty name, a tag without an identifier).
    case invalidArgument(String)
    /// A setting (an option or environment variable) has an unusable value.
    case invalidConfiguration(String)
    /// The secret store exists but nothing was given that unlocks it.
    case secretStoreKeyMissing(directory: String)
    /// A key the server made once and depends on is missing or damaged in the secret store, and making a new one
    /// would lose what the old one protects; the reason says what to restore.
    case secretUnusable(String)
}

extension WalletServerError: CustomStringConvertible, LocalizedError {
    /// A message for logs and operators; never contains a token or a key.
    public var description: String {
        switch self {
        case .invalidDatabaseURL(let reason): return "the database URL is not usable: \(reason)"
        case .databaseUnavailable(let reason): return "the database is unavailable: \(reason)"
        case .schemaTooNew(let found, let known):
            return "the database schema is at version \(found), newer than this server's \(known): upgrade Coffer"
        case .conflict(let what): return "\(what) already exists"
        case .notFound(let what): return "\(what) does not exist"
        case .corruptRecord(let what): return "\(what) cannot be read back"
        case .invalidArgument(let reason): return reason
        case .invalidConfiguration(let reason): return "the configuration is not usable: \(reason)"
        case .secretUnusable(let reason): return reason
        case .secretStoreKeyMissing(let directory):
            return """
                the secret store at \(directory) is protected by a passphrase or key file: set COFFER_PASSPHRASE or \
                COFFER_KEY_FILE (or pass --passphrase-file or --key-file)
                """
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
