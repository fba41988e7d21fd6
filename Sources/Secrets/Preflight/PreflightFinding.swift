/// One result of ``SecretsPreflight``: what was found, how serious it is, and where.
public struct PreflightFinding: Hashable, Sendable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Level: Int, Hashable, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        /// Worth knowing; nothing to fix.
        case info
        /// Probably a mistake; the app may still work.
        case warn
        /// The store or a required secret is unusable.
        case error

        /// Orders levels by severity.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
        /// `info`, `warn` or `error`.
        public var description: String {
            switch self {
            case .info: return "info"
            case .warn: return "warn"
            case .error: return "error"
            }
        }
    }

    /// What kind of finding this is, stable for tools to match on.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The store could not be listed or read.
        case storeUnreadable = "store-unreadable"
        /// The store has no items.
        case storeEmpty = "store-empty"
        /// A summary of what the store holds.
        case summary
        /// The configuration had a problem.
        case configuration
        /// A required secret is missing; or an optional one is absent.
        case missing
        /// A stored item cannot be decoded (or decrypted) as its type.
        case undecodable
        /// An item holds no bytes at all.
        case emptyValue = "empty-value"
        /// A credential field (token, key, secret, password) is an empty string.
        case emptyToken = "empty-token"
        /// An item or one of its fields is an empty object or array.
        case emptyEnvelope = "empty-envelope"
        /// Some other field is an empty string.
        case emptyField = "empty-field"
        /// A stored item has no declared type among the expectations.
        case unrecognized
        /// A file of the store is damaged.
        case damagedItem = "damaged-item"
        /// A key rotation was interrupted.
        case rotationIncomplete = "rotation-incomplete"
        /// The store's directory belongs to another user or lets the group or others in.
        case storeAccess = "store-access"
        /// A check the secret type declares for itself (``SecretCoder/validate()``).
        case declared
        /// An item was stored with another access policy than the store now reads it under.
        case policyMismatch = "policy-mismatch"
        /// An item needs the user to authenticate (Face ID, the passcode), and a preflight never prompts.
        case needsUser = "needs-user"
    }

    /// How serious it is.
    public var level: Level
    /// What kind of finding it is.
    public var kind: Kind
    /// The secret's path, when the finding is about one secret.
    public var account: String?
    /// A sentence for people; it never contains a secret value.
    public var message: String

    /// Creates a finding.
    public init(level: Level, kind: Kind, account: String? = nil, message: String) {
        self.level = level
        self.kind = kind
        self.account = account
        self.message = message
    }

    /// What reading the item at `account` failing with `error` means: an item that needs the user is noted (a
    /// preflight never prompts), anything else is an error.
    static func unreadable(_ error: any Error, account: String) -> PreflightFinding {
        if case .authenticationRequired? = error as? SecretsError {
            return PreflightFinding(
                level: .info, kind: .needsUser, account: account,
                message: "not read: it needs the user to authenticate, and a preflight never prompts")
        }
        return PreflightFinding(level: .error, kind: .undecodable, account: account, message: "\(error)")
    }

    /// `[level] account: message`.
    public var description: String {
        "[\(level)] " + (account.map { "\($0): " } ?? "") + message
    }
}

/// A problem a secret type reports about one of its own values, from ``SecretCoder/validate()``.
public struct PreflightIssue: Hashable, Sendable {
    /// How serious it is.
    public var level: PreflightFinding.Level
    /// A sentence for people, without the secret value.
    public var message: String

    /// Creates an issue.
    public init(level: PreflightFinding.Level, message: String) {
        self.level = level
        self.message = message
    }

    /// An informational note.
    public static func info(_ message: String) -> PreflightIssue { PreflightIssue(level: .info, message: message) }
    /// A warning.
    public static func warn(_ message: String) -> PreflightIssue { PreflightIssue(level: .warn, message: message) }
    /// An error.
    public static func error(_ message: String) -> PreflightIssue { PreflightIssue(level: .error, message: message) }
}
