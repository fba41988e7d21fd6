import Foundation
import Secrets

/// The errors of the access audit's file: what a caller can act on, never a secret.
public enum SecretsAuditError: Error, Hashable, Sendable {
    /// An operating-system call on the audit file failed.
    case io(operation: String, path: String, code: Int32)
    /// The audit key could not be read from, or saved into, the secret store.
    case key(SecretsError)
    /// The secret store holds no audit key, so the file cannot be verified.
    case missingKey(account: String)
    /// The path is not a regular file Coffer may write (a directory, a symbolic link, a device).
    case notARegularFile(path: String)
    /// The sink was closed; nothing more can be recorded.
    case closed
    /// The audit file no longer holds what its checkpoint says was written (it was emptied, cut, replaced, or its
    /// checkpoint removed), so it is not continued: the reason says what, and the file is evidence to keep.
    case chainLost(path: String, reason: String)
}

extension SecretsAuditError: CustomStringConvertible, LocalizedError {
    /// A message that says what went wrong and what to do.
    public var description: String {
        switch self {
        case .io(let operation, let path, let code):
            return "\(operation) \(path) failed: \(String(cString: strerror(code))) (errno \(code)); "
                + "the records are kept and written once it succeeds"
        case .key(let error):
            return "the audit key is unavailable: \(error)"
        case .missingKey(let account):
            return
                "the secret store has no audit key at '\(account)': verify against the store the audit was written with"
        case .notARegularFile(let path):
            return "\(path) is not a regular file: give the audit a file path (symbolic links are refused)"
        case .closed:
            return "the audit file was closed"
        case .chainLost(let path, let reason):
            return "the audit file \(path) is not continued: \(reason); run `coffer secrets audit verify`, move the "
                + "file aside as evidence, then start a new one with `coffer secrets audit reset`"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
