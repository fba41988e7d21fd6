import PostgresKit
import SQLiteKit
import WalletServices

/// What a database driver's error means to the code that ran the statement, read from the engine's own error code
/// (PostgreSQL's SQLSTATE, SQLite's extended result code), never from its message.
enum DatabaseErrorKind: Equatable, Sendable {
    /// A row would repeat the key of a unique constraint or primary key.
    case uniqueViolation
    /// A row would refer to a row that does not exist (or a referenced row would be removed).
    case foreignKeyViolation
    /// The statement names a table that does not exist (PostgreSQL; SQLite reports it only as a generic error).
    case undefinedTable
    /// A value the engine refuses to store or compare (PostgreSQL's SQLSTATE class 22, data exception: a NUL
    /// character in text, say; SQLite stores such values).
    case invalidValue
    /// Any other failure, including errors that do not come from a database driver.
    case other

    /// The kind of `error`: by its SQLSTATE for a PostgreSQL error, by its result code for a SQLite error.
    init(_ error: any Error) {
        if let error = error as? PSQLError {
            self = Self(sqlState: error.serverInfo?[.sqlState])
        } else if let error = error as? SQLiteError {
            self = Self(sqliteReason: error.reason)
        } else {
            self = .other
        }
    }

    /// The kind a PostgreSQL SQLSTATE names (`nil` when the server sent none: the connection failed).
    private init(sqlState: String?) {
        switch sqlState {
        case PostgresError.Code.uniqueViolation.raw: self = .uniqueViolation
        case PostgresError.Code.foreignKeyViolation.raw: self = .foreignKeyViolation
        case PostgresError.Code.undefinedTable.raw: self = .undefinedTable
        case let state? where state.hasPrefix("22"): self = .invalidValue
        default: self = .other
        }
    }

    /// The kind a SQLite extended result code names (SQLiteNIO opens connections with extended codes on).
    private init(sqliteReason reason: SQLiteError.Reason) {
        switch reason {
        case .constraintUniqueFailed, .constraintPrimaryKeyFailed: self = .uniqueViolation
        case .constraintForeignKeyFailed: self = .foreignKeyViolation
        default: self = .other
        }
    }
}
