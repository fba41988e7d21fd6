import Foundation

/// The high-level, typed credential store: save, read and delete ``SecretCoder`` values by their ``ServiceID``.
///
/// ``AggregateSecretsStore`` is the implementation; business logic depends on this protocol so that tests can
/// substitute any store.
public protocol SecretsStoring: Sendable {
    /// Encodes `secret` and stores it at `C.id`.
    func save<C: SecretCoder>(_ secret: C) throws
    /// Reads and decodes the secret at `id`, or returns `nil` when there is none.
    func read<C: SecretCoder>(_ id: ServiceID<C>) throws -> C?
    /// Removes the secret at `id` (from every place the store knows).
    func delete<C: SecretCoder>(_ id: ServiceID<C>) throws
    /// The paths of every stored secret, sorted.
    func listAccounts() throws -> [String]
}

/// Byte-level access to a store's items by path, for tools that do not know the secrets' types (the `coffer`
/// command, ``SecretsPreflight``).
public protocol SecretsDataStoring: SecretsStoring {
    /// Stores raw bytes at `account`.
    func saveData(_ data: Data, account: String) throws
    /// Reads the raw bytes at `account`, or `nil`.
    func readData(account: String) throws -> Data?
    /// Removes the item at `account`; returns whether there was one.
    @discardableResult
    func deleteData(account: String) throws -> Bool
}
