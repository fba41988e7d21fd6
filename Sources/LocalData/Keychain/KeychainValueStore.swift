import Foundation
import Secrets

/// The platform key store for the ``StorageDomain/keychain`` domain: the Keychain on Apple platforms, the Secret
/// Service on Linux (``SecretsPlatform/SecretsStack``), or any other ``Secrets/SecretsBackend``.
///
/// Values larger than ``maximumInlineSize`` do not suit a key store (the Keychain keeps items in one database,
/// the Secret Service sends them over D-Bus): they go to an encrypted file store whose key is itself kept in the
/// key store, so they stay as well protected on this device. The key store's copy always wins over the file's, and
/// every change writes the new place before clearing the old one, so a crash half-way leaves the old value or the
/// new one, never neither.
///
/// Made over a shared ``Secrets/SecretsStore`` (``StorageConfiguration/keychainStore``), the helper keeps its items
/// in that store: every read and write goes through the actor (off the cooperative pool, one write at a time per
/// item), and the store's ``Secrets/SecretsStore/changes()`` reports the router's writes to whoever follows them,
/// just as the router sees what others saved there. The store keeps every item with its own access policy, so a
/// key asking for another one is refused (``Secrets/SecretsError/unsupported(_:)``) rather than kept less
/// protected than it asked. The overflow store's key stays in the backend the helper was given.
public actor KeychainValueStore {
    /// The account, under ``service``, of the key that opens the overflow store.
    public static let overflowKeyAccount = "localdata.keys/keychain-overflow"

    /// The service name of every item.
    public let service: String
    /// The access group items are shared through (`nil`: the app's default).
    public let accessGroup: String?
    /// The largest value kept in the key store itself.
    public let maximumInlineSize: Int
    /// The shared store the items are kept in, or `nil` when they go straight to ``backend()``.
    public nonisolated let store: SecretsStore?
    private let makeBackend: @Sendable () throws -> any SecretsBackend
    private let overflowDirectory: URL
    private let files: FileValueStore
    private var openedBackend: (any SecretsBackend)?
    private var openedOverflow: FileValueStore.Encryption?

    /// A helper over the backend `backend` makes (called once, on first use).
    ///
    /// - Parameters:
    ///   - overflowDirectory: Where values over `maximumInlineSize` are kept, encrypted.
    ///   - files: The file helper that opens the overflow store.
    public init(
        service: String, accessGroup: String? = nil, maximumInlineSize: Int = 16 * 1024, overflowDirectory: URL,
        files: FileValueStore, backend: @escaping @Sendable () throws -> any SecretsBackend
    ) {
        self.init(
            store: nil, service: service, accessGroup: accessGroup, maximumInlineSize: maximumInlineSize,
            overflowDirectory: overflowDirectory, files: files, backend: backend)
    }

    /// A helper whose items live in `store`, shared with other components (an ``AccessTokenStorage``-like
    /// credential, a background refresh) that follow its ``Secrets/SecretsStore/changes()``.
    ///
    /// Items take the store's service, access group and access policy. `service` and `accessGroup` place the
    /// overflow store's key, which stays in the backend `backend` makes (called once, on first use) and never shows
    /// in the store's accounts.
    ///
    /// - Parameters:
    ///   - overflowDirectory: Where values over `maximumInlineSize` are kept, encrypted.
    ///   - files: The file helper that opens the overflow store.
    public init(
        store: SecretsStore, service: String, accessGroup: String? = nil, maximumInlineSize: Int = 16 * 1024,
        overflowDirectory: URL, files: FileValueStore, backend: @escaping @Sendable () throws -> any SecretsBackend
    ) {
        self.init(
            store: Optional(store), service: service, accessGroup: accessGroup, maximumInlineSize: maximumInlineSize,
            overflowDirectory: overflowDirectory, files: files, backend: backend)
    }

    /// A helper whose items live in `store`, or straight in `backend`'s when it is `nil`.
    init(
        store: SecretsStore?, service: String, accessGroup: String?, maximumInlineSize: Int, overflowDirectory: URL,
        files: FileValueStore, backend: @escaping @Sendable () throws -> any SecretsBackend
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.maximumInlineSize = maximumInlineSize
        self.overflowDirectory = overflowDirectory
        self.files = files
        self.makeBackend = backend
        self.store = store
    }

    /// The key store, opened on first use.
    public func backend() throws -> any SecretsBackend {
        if let openedBackend { return openedBackend }
        let backend = try makeBackend()
        openedBackend = backend
        return backend
    }

    /// Stores `data` as `account` with `accessPolicy`.
    ///
    /// - Throws: `tooLarge` for a value over ``maximumInlineSize`` whose policy asks for user presence or biometry
    ///   (a file cannot enforce those), and the key store's errors.
    public func set(_ data: Data, account: String, accessPolicy: AccessPolicy) async throws {
        let query = self.query(account, accessPolicy: accessPolicy)
        try query.validate()
        try checkPolicy(accessPolicy, account: account)
        if data.count <= maximumInlineSize {
            try await saveInline(data, query)
            if try overflowExists() {
                try await files.delete(name: account, in: overflowDirectory, encryption: try overflowEncryption())
            }
            return
        }
        guard accessPolicy.accessControl.isEmpty else {
            throw SecretsError.tooLarge(byteCount: data.count, limit: maximumInlineSize)
        }
        try await files.write(data, name: account, in: overflowDirectory, encryption: try overflowEncryption())
        try await deleteInline(query)
    }

    /// The value of `account`, or `nil`.
    public func get(account: String) async throws -> Data? {
        if let inline = try await readInline(query(account)) { return inline }
        guard try overflowExists() else { return nil }
        return try await files.read(name: account, in: overflowDirectory, encryption: try overflowEncryption())
    }

    /// Removes `account`; returns whether it held a value.
    @discardableResult
    public func delete(account: String) async throws -> Bool {
        let inline = try await deleteInline(query(account))
        guard try overflowExists() else { return inline }
        let overflow = try await files.delete(
            name: account, in: overflowDirectory, encryption: try overflowEncryption())
        return inline || overflow
    }

    /// Whether `account` holds a value.
    public func exists(account: String) async throws -> Bool {
        try await get(account: account) != nil
    }

    /// The accounts holding values, sorted (the overflow store's key is not one of them).
    public func accounts() async throws -> [String] {
        var names = Set(try await listInline())
        if try overflowExists() {
            names.formUnion(try await files.list(in: overflowDirectory, encryption: try overflowEncryption()))
        }
        return names.filter { !$0.hasPrefix("localdata.keys/") }.sorted()
    }

    /// Removes every value; keys kept for encrypted stores stay (without them those stores could not be opened).
    ///
    /// - Returns: How many values were removed.
    @discardableResult
    public func deleteAll() async throws -> Int {
        var removed = 0
        for account in try await accounts() where try await delete(account: account) {
            removed += 1
        }
        return removed
    }

    // MARK: The one path to the items

    private func saveInline(_ data: Data, _ query: SecretQuery<Data>) async throws {
        if let store {
            try await store.save(data, account: query.account)
        } else {
            try backend().save(data, for: query)
        }
    }

    private func readInline(_ query: SecretQuery<Data>) async throws -> Data? {
        if let store {
            try query.validate()
            return try await store.read(account: query.account)
        }
        return try backend().read(query)
    }

    @discardableResult
    private func deleteInline(_ query: SecretQuery<Data>) async throws -> Bool {
        if let store { return try await store.delete(account: query.account) }
        return try backend().delete(query)
    }

    private func listInline() async throws -> [String] {
        if let store { return try await store.listAccounts() }
        return try backend().listAccounts(service: service, accessGroup: accessGroup)
    }

    /// Over a shared store, refuses a policy other than the one the store keeps its items with.
    private func checkPolicy(_ accessPolicy: AccessPolicy, account: String) throws {
        guard let store else { return }
        let kept = store.aggregateStore?.configuration.accessPolicy ?? .defaultSyncableWhenUnlocked
        guard accessPolicy != kept else { return }
        throw SecretsError.unsupported(
            "keychain key '\(account)' asks for another access policy than the shared SecretsStore keeps its items "
                + "with: give the key the store's policy, or keep such keys out of StorageConfiguration.keychainStore")
    }

    private func query(_ account: String, accessPolicy: AccessPolicy = .defaultSyncableWhenUnlocked)
        -> SecretQuery<Data>
    {
        SecretQuery(service: service, account: account, accessGroup: accessGroup, accessPolicy: accessPolicy)
    }

    private func overflowExists() throws -> Bool {
        FileManager.default.fileExists(atPath: overflowDirectory.path)
    }

    private func overflowEncryption() throws -> FileValueStore.Encryption {
        if let openedOverflow { return openedOverflow }
        let keyQuery = SecretQuery<Data>(
            service: service, account: Self.overflowKeyAccount, accessGroup: accessGroup,
            accessPolicy: AccessPolicy(accessibility: .afterFirstUnlockThisDeviceOnly))
        let key = try KeySource.stored(in: backend(), at: keyQuery, createIfMissing: true)
        let encryption = FileValueStore.Encryption(
            algorithm: .aes256GCM, key: key, iterations: EncryptedFileBackend.recommendedIterations)
        openedOverflow = encryption
        return encryption
    }
}
