/// One change a ``SecretsStore`` made: which account, and whether it was saved or deleted.
///
/// A change never carries the value: subscribers learn *that* an item changed and read it themselves if they
/// need it, so a change can be logged or handed to code that must not see secrets.
public struct SecretsStoreChange: Hashable, Sendable, CustomStringConvertible {
    /// What happened to the item.
    public enum Kind: String, Hashable, Sendable {
        /// A value was saved (created or replaced).
        case saved
        /// The item was deleted.
        case deleted
    }

    /// The account (the ``ServiceID`` path) that changed.
    public let account: String
    /// What happened to it.
    public let kind: Kind

    /// Creates a change record.
    public init(account: String, kind: Kind) {
        self.account = account
        self.kind = kind
    }

    /// For example `saved 'ai/openai'`; never contains a value.
    public var description: String { "\(kind.rawValue) \(SecretsError.quoted(account))" }
}
