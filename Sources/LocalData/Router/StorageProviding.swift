import Foundation

/// Reading and writing typed values by key: what apps and tests depend on, with ``StorageRouter`` as the
/// implementation.
public protocol StorageProviding: Sendable {
    /// Stores `value` for `key`, replacing what was there.
    func set<Key: StorageKey>(_ value: Key.Value, for key: Key) async throws(StorageError)
    /// The value stored for `key`, or `nil` when there is none.
    func get<Key: StorageKey>(_ key: Key) async throws(StorageError) -> Key.Value?
    /// Removes `key`'s value; removing a missing value is not an error.
    func remove<Key: StorageKey>(_ key: Key) async throws(StorageError)
    /// Whether `key` holds a value.
    func exists<Key: StorageKey>(_ key: Key) async throws(StorageError) -> Bool
}
