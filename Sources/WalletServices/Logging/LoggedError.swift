import Secrets
import WalletDocuments

/// What the log may say of an error: the text of Coffer's own errors (which never hold secrets), only the type of any
/// other.
package enum LoggedError {
    /// The description of `error` that is safe to log.
    package static func description(of error: any Error) -> String {
        switch error {
        case let error as WalletServerError: return error.description
        case let error as WalletDocumentError: return error.description
        case let error as SecretsError: return error.description
        default: return String(reflecting: type(of: error))
        }
    }
}
