import Foundation
import Secrets

/// One access to a secret store, as the audit records it: what was done, to which item, through which backend, how
/// it ended and how long it took. It never holds a value, a key or a token.
public struct SecretsAuditEvent: Hashable, Sendable {
    /// What the access did.
    public enum Operation: String, CaseIterable, Hashable, Sendable {
        /// A read of one item.
        case read
        /// A save of one item.
        case save
        /// A delete of one item.
        case delete
        /// A listing of the stored paths.
        case list
        /// A move of items from one backend to another.
        case migrate
        /// A re-encryption of the store under a new key (`rotate-key`, `rekey`, `change-passphrase`).
        case rotate
    }

    /// How the access ended.
    public enum Outcome: String, CaseIterable, Hashable, Sendable {
        /// A read or delete found the item, or a listing, migration or rotation completed.
        case found
        /// A read or delete found no item at the path.
        case missing
        /// A save stored the value.
        case saved
        /// The store is locked (a locked keyring or device): nothing was read or written.
        case locked
        /// The caller's passphrase, key or authentication was refused.
        case denied
        /// Anything else went wrong: ``SecretsAuditEvent/reason`` names the error.
        case failed

        /// The outcome of an access that threw `error`.
        public init(_ error: SecretsError) {
            switch error {
            case .locked, .authenticationRequired: self = .locked
            case .wrongPassphrase, .wrongKey, .authenticationDenied, .authenticationCancelled, .biometryChanged:
                self = .denied
            default: self = .failed
            }
        }
    }

    /// When the access started.
    public var time: Date
    /// What the access did.
    public var operation: Operation
    /// The service the item belongs to (`COFFER_SERVICE`, the app's bundle identifier…).
    public var service: String
    /// The item's account path, or `nil` for an access to the whole store (a listing, a rotation).
    public var account: String?
    /// The backend that served the access, such as `encrypted-file` or `secret-service`.
    public var backend: String
    /// How the access ended.
    public var outcome: Outcome
    /// How long the access took.
    public var duration: Duration
    /// Who asked: the label the caller set with `SecretsAudit.withCaller`, or the audit's default.
    public var caller: String?
    /// For a failed, denied or locked access, the kind of error (the ``SecretsError`` case, such as
    /// `authenticationFailed`): never its message, which could name more than the audit should keep.
    public var reason: String?

    /// Creates an event.
    public init(
        time: Date, operation: Operation, service: String, account: String?, backend: String, outcome: Outcome,
        duration: Duration, caller: String? = nil, reason: String? = nil
    ) {
        self.time = time
        self.operation = operation
        self.service = service
        self.account = account
        self.backend = backend
        self.outcome = outcome
        self.duration = duration
        self.caller = caller
        self.reason = reason
    }

    /// The duration in whole microseconds, as the file and the logs show it.
    public var durationMicroseconds: Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}

extension SecretsAuditEvent: CustomStringConvertible {
    /// One line: `read coffer/ai/openai via encrypted-file: found in 41 µs (caller refresh)`.
    public var description: String {
        var line = "\(operation.rawValue) \(service)"
        if let account { line += "/\(account)" }
        line += " via \(backend): \(outcome.rawValue)"
        if let reason { line += " (\(reason))" }
        line += " in \(durationMicroseconds) µs"
        if let caller { line += " (caller \(caller))" }
        return line
    }
}
