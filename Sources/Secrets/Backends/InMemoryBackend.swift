import Foundation

/// A backend that keeps items in memory, keyed by service, access group and account.
///
/// For tests, previews and tools that need no persistence. Safe to share between threads.
public final class InMemoryBackend: SecretsBackend, SecretsExclusiveCreating {
    private struct Key: Hashable {
        var service: String
        var accessGroup: String?
        var account: String
    }

    private let items = Locked<[Key: Data]>([:])
    /// The largest value accepted, in bytes.
    public let maximumValueSize: Int

    /// Creates an empty backend that accepts values up to `maximumValueSize` bytes.
    public init(maximumValueSize: Int = 16 * 1024 * 1024) {
        self.maximumValueSize = maximumValueSize
    }

    /// Stores a copy of `data`.
    public func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws {
        try query.validate()
        guard data.count <= maximumValueSize else {
            throw SecretsError.tooLarge(byteCount: data.count, limit: maximumValueSize)
        }
        items.withLock { $0[Self.key(query)] = data }
    }

    /// Stores a copy of `data` unless the account holds an item; returns whether it did.
    public func create<Value>(_ data: Data, for query: SecretQuery<Value>) throws -> Bool {
        try query.validate()
        guard data.count <= maximumValueSize else {
            throw SecretsError.tooLarge(byteCount: data.count, limit: maximumValueSize)
        }
        return items.withLock { items in
            guard items[Self.key(query)] == nil else { return false }
            items[Self.key(query)] = data
            return true
        }
    }

    /// Returns the stored bytes.
    public func read<Value>(_ query: SecretQuery<Value>) throws -> Data? {
        try query.validate()
        return items.withLock { $0[Self.key(query)] }
    }

    /// Removes the item.
    @discardableResult
    public func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool {
        try query.validate()
        return items.withLock { $0.removeValue(forKey: Self.key(query)) != nil }
    }

    /// The sorted accounts of `service` in `accessGroup`.
    public func listAccounts(service: String, accessGroup: String?) throws -> [String] {
        items.withLock { items in
            items.keys.filter { $0.service == service && $0.accessGroup == accessGroup }.map(\.account).sorted()
        }
    }

    private static func key<Value>(_ query: SecretQuery<Value>) -> Key {
        Key(service: query.service, accessGroup: query.accessGroup, account: query.account)
    }
}
