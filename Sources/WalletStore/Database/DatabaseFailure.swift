import Foundation
import PostgresKit
import SQLiteKit
import WalletServices

/// What a database driver's error says, for an operator: PostgreSQL's SQLSTATE and message or SQLite's message,
/// with the connection's credentials taken out. Never a bare type name.
enum DatabaseFailure {
    /// A one-line account of `error`, with every string of `credentials` replaced by `<redacted>`.
    static func describe(_ error: any Error, redacting credentials: [String] = []) -> String {
        var text: String
        if let error = error as? PSQLError {
            if let state = error.serverInfo?[.sqlState] {
                text = "SQLSTATE \(state): \(error.serverInfo?[.message] ?? "no message")"
            } else {
                text = "PostgreSQL \(error.code)"
            }
        } else if let error = error as? SQLiteError {
            text = "SQLite: \(error.message)"
        } else if let error = error as? WalletServerError {
            text = error.description
        } else {
            text = String(describing: type(of: error))
        }
        for credential in credentials where !credential.isEmpty {
            text = text.replacingOccurrences(of: credential, with: "<redacted>")
        }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The secrets of a database URL that must not appear in a message: its password, raw and percent-decoded.
    static func credentials(of url: String) -> [String] {
        guard let password = URLComponents(string: url)?.percentEncodedPassword, !password.isEmpty else { return [] }
        return [password, password.removingPercentEncoding ?? password]
    }
}
