import Secrets

/// What ``KeychainImporter`` moved from another library's items, and what it could not.
public struct KeychainImportReport: Hashable, Sendable, CustomStringConvertible {
    /// An item copied into the store and read back the same.
    public struct Moved: Hashable, Sendable {
        /// The key the library knew it by.
        public var key: String
        /// The account it has in the store.
        public var account: String
        /// Whether the library's item was deleted after the copy was verified.
        public var originalRemoved: Bool

        /// Creates an entry.
        package init(key: String, account: String, originalRemoved: Bool) {
            self.key = key
            self.account = account
            self.originalRemoved = originalRemoved
        }
    }

    /// An item that stayed where it was, and why.
    public struct NotMoved: Hashable, Sendable {
        /// Why an item was not moved.
        public enum Reason: Hashable, Sendable {
            /// Its key makes no valid account path in the store (``Secrets/SecretPath``).
            case invalidAccount(String)
            /// The store holds other bytes at the account already (and overwriting was not asked for).
            case exists
            /// The library's item could not be read (locked, the user cancelled, needs the user…).
            case unreadable(SecretsError)
            /// The store refused the copy.
            case notStored(SecretsError)
            /// The copy read back differently (or not at all); the library's item is kept.
            case verificationFailed
            /// Another of the library's items with the same key (one synced, one not) was copied over this one's
            /// copy; this item is kept where it was.
            case replacedBySameKey
        }

        /// The key the library knew it by.
        public var key: String
        /// Why it was not moved.
        public var reason: Reason

        /// Creates an entry.
        package init(key: String, reason: Reason) {
            self.key = key
            self.reason = reason
        }
    }

    /// The library and versions whose layout was imported.
    public var library: String
    /// The items moved, in the order they were found.
    public var moved: [Moved] = []
    /// The items that were not, in the order they were found.
    public var notMoved: [NotMoved] = []

    /// A summary: how many moved, and each item that did not, with its reason (keys, never values).
    public var description: String {
        var lines = ["\(library): \(moved.count) moved, \(notMoved.count) not moved"]
        for item in notMoved { lines.append("  \(SecretsError.quoted(item.key)): \(item.reason)") }
        return lines.joined(separator: "\n")
    }
}
