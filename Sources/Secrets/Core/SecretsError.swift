import Foundation

/// The errors Coffer's credential store throws.
///
/// Each case is a situation a caller can act on; none of them carries a secret value. A missing item is not an
/// error: reads return `nil`. A store that cannot be read trustworthily (locked, unavailable, tampered) throws,
/// and never reads as "not found".
public enum SecretsError: Error, Hashable, Sendable {
    /// A service, account path or access group is not acceptable as an identifier.
    case invalidIdentifier(String, reason: String)
    /// The store is locked (a locked keyring, a device that is locked, interaction not allowed).
    case locked(String)
    /// The store cannot be reached at all (no keyring service, no session bus, a store that does not exist).
    case unavailable(String)
    /// The passphrase does not unlock the store.
    case wrongPassphrase(store: String)
    /// The key (key file or raw key) does not unlock the store.
    case wrongKey(store: String)
    /// An item's ciphertext failed authentication: it was tampered with, or belongs to another item.
    case authenticationFailed(item: String)
    /// The item needs the user (Face ID, Touch ID, the passcode) and the read was not allowed to prompt
    /// (``AuthenticationContext/Interaction/notAllowed``).
    case authenticationRequired(item: String)
    /// The user (or the system, when the app left the foreground) cancelled the authentication prompt.
    case authenticationCancelled(item: String)
    /// The user's authentication failed (a face or finger not recognised, a wrong passcode).
    case authenticationDenied(item: String)
    /// The item was protected by the biometry enrolled when it was saved, and the enrolment has changed since: it
    /// can never be read again.
    case biometryChanged(item: String)
    /// More than one item matches a query that must match one.
    case ambiguousMatch(String)
    /// A value is larger than the store accepts.
    case tooLarge(byteCount: Int, limit: Int)
    /// Part of the store was replaced by an older copy of itself: its header is older than items sealed after it,
    /// or than a header this process has already seen.
    case rolledBack(String)
    /// Stored bytes are not in the expected format (truncated, empty, foreign or from a newer version).
    case corruptData(String)
    /// A value could not be encoded for storage.
    case encodingFailed(type: String, reason: String)
    /// A stored value could not be decoded as the requested type.
    case decodingFailed(account: String, type: String, reason: String)
    /// The store was asked for something it does not support.
    case unsupported(String)
    /// An operating-system call failed.
    case io(operation: String, path: String, code: Int32)
}

extension SecretsError: CustomStringConvertible, LocalizedError {
    /// A message that says what went wrong and what to do; never contains a secret value.
    public var description: String {
        switch self {
        case .invalidIdentifier(let identifier, let reason):
            return "invalid identifier \(Self.quoted(identifier)): \(reason)"
        case .locked(let store):
            return "\(store) is locked: unlock it and try again"
        case .unavailable(let reason):
            return "the secret store is unavailable: \(reason)"
        case .wrongPassphrase(let store):
            return "the passphrase does not unlock the store at \(store): check COFFER_PASSPHRASE or --passphrase-file"
        case .wrongKey(let store):
            return "the key does not unlock the store at \(store): check the key file"
        case .authenticationFailed(let item):
            return "\(item) failed authentication: it was modified or moved; restore it from a backup or delete it"
        case .authenticationRequired(let item):
            return "\(item) needs the user to authenticate, and this read may not prompt: read it while the app is in "
                + "front, with an AuthenticationContext that allows interaction"
        case .authenticationCancelled(let item):
            return "the authentication for \(item) was cancelled: ask again when the user wants to go on"
        case .authenticationDenied(let item):
            return "the user's authentication for \(item) failed: let them try again"
        case .biometryChanged(let item):
            return "\(item) was protected by the Face ID or Touch ID enrolled when it was saved, which has changed: "
                + "it cannot be read any more; delete it and ask the user for the secret again"
        case .ambiguousMatch(let what):
            return "more than one item matches \(what): make the query more specific"
        case .tooLarge(let byteCount, let limit):
            return "the value is \(byteCount) bytes, more than the store's limit of \(limit) bytes"
        case .rolledBack(let what):
            return "\(what) was replaced by an older copy; restore the newest copy of the store, then re-key it"
        case .corruptData(let what):
            return "\(what) is corrupt; restore it from a backup or delete it"
        case .encodingFailed(let type, let reason):
            return "a \(type) could not be encoded: \(reason)"
        case .decodingFailed(let account, let type, let reason):
            return "the item at \(Self.quoted(account)) is not a valid \(type): \(reason)"
        case .unsupported(let what):
            return "unsupported: \(what)"
        case .io(let operation, let path, let code):
            return "\(operation) \(path) failed: \(String(cString: strerror(code))) (errno \(code))"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }

    /// Quotes an identifier for a message, shortened so that a hostile one cannot flood a log.
    package static func quoted(_ identifier: String) -> String {
        let limit = 80
        let shown = identifier.count > limit ? identifier.prefix(limit) + "…" : Substring(identifier)
        return "'"
            + shown.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : String($0) }
            .joined() + "'"
    }
}

extension SecretsError {
    /// Runs a store call whose errors are untyped, passing a ``SecretsError`` through as it is and reporting any
    /// other error by its type only (its message could hold more than a store error may say).
    package static func catching<Result>(_ body: () throws -> Result) throws(SecretsError) -> Result {
        do {
            return try body()
        } catch let error as SecretsError {
            throw error
        } catch {
            throw .unavailable("the store failed with \(type(of: error))")
        }
    }

    /// The case's name, for an audit record: `locked`, `authenticationFailed`… Never the associated values.
    package var caseName: String {
        switch self {
        case .invalidIdentifier: "invalidIdentifier"
        case .locked: "locked"
        case .unavailable: "unavailable"
        case .wrongPassphrase: "wrongPassphrase"
        case .wrongKey: "wrongKey"
        case .authenticationFailed: "authenticationFailed"
        case .authenticationRequired: "authenticationRequired"
        case .authenticationCancelled: "authenticationCancelled"
        case .authenticationDenied: "authenticationDenied"
        case .biometryChanged: "biometryChanged"
        case .ambiguousMatch: "ambiguousMatch"
        case .tooLarge: "tooLarge"
        case .rolledBack: "rolledBack"
        case .corruptData: "corruptData"
        case .encodingFailed: "encodingFailed"
        case .decodingFailed: "decodingFailed"
        case .unsupported: "unsupported"
        case .io: "io"
        }
    }
}
