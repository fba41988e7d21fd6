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
public actor KeychainHelper {
    /// The account, under ``service``, of the key that opens the overflow store.
    public static let overflowKeyAccount = "localdata.keys/keychain-overflow"

    /// The service name of every item.
    public let service: String
    /// The access group items are shared through (`nil`: the app's default).
    public let accessGroup: String?
    /// The largest value kept in the key store itself.
    public let maximumInlineSize: Int
    private let makeBackend: @Sendable () throws -> any SecretsBackend
    private let overflowDirectory: URL
    private let files: FileStorageHelper
    private var openedBackend: (any SecretsBackend)?
    private var openedOverflow: FileStorageHelper.Encryption?

    /// A helper over the backend `backend` makes (called once, on first use).
    ///
    /// - Parameters:
    ///   - overflowDirectory: Where values over `maximumInlineSize` are kept, encrypted.
    ///   - files: The file helper that opens the overflow store.
    public init(
        service: String, accessGroup: String? = nil, maximumInlineSize: Int = 16 * 1024, overflowDirectory: URL,
        files: FileStorageHelper, backend: @escaping @Sendable () throws -> any SecretsBackend
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.maximumInlineSize = maximumInlineSize
        self.overflowDirectory = overflowDirectory
        self.files = files
        self.makeBackend = backend
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
        if data.count <= maximumInlineSize {
            try backend().save(data, for: query)
            if try overflowExists() {
                try await files.delete(name: account, in: overflowDirectory, encryption: try overflowEncryption())
            }
            return
        }
        guard accessPolicy.accessControl.isEmpty else {
            throw SecretsError.tooLarge(byteCount: data.count, limit: maximumInlineSize)
        }
        try await files.write(data, name: account, in: overflowDirectory, encryption: try overflowEncryption())
        try backend().delete(query)
    }

    /// The value of `account`, or `nil`.
    public func get(account: String) async throws -> Data? {
        if let inline = try backend().read(query(account)) { return inline }
        guard try overflowExists() else { return nil }
        return try await files.read(name: account, in: overflowDirectory, encryption: try overflowEncryption())
    }

    /// Removes `account`; returns whether it held a value.
    @discardableResult
    public func delete(account: String) async throws -> Bool {
        let inline = try backend().delete(query(account))
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
        var names = Set(try backend().listAccounts(service: service, accessGroup: accessGroup))
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

    private func query(_ account: String, accessPolicy: AccessPolicy = .defaultSyncableWhenUnlocked)
        -> SecretQuery<Data>
    {
        SecretQuery(service: service, account: account, accessGroup: accessGroup, accessPolicy: accessPolicy)
    }

    private func overflowExists() throws -> Bool {
        FileManager.default.fileExists(atPath: overflowDirectory.path)
    }

    private func overflowEncryption() throws -> FileStorageHelper.Encryption {
        if let openedOverflow { return openedOverflow }
        let keyQuery = SecretQuery<Data>(
            service: service, account: Self.overflowKeyAccount, accessGroup: accessGroup,
            accessPolicy: AccessPolicy(accessibility: .afterFirstUnlockThisDeviceOnly))
        let key = try KeySource.stored(in: backend(), at: keyQuery, createIfMissing: true)
        let encryption = FileStorageHelper.Encryption(
            algorithm: .aes256GCM, key: key, iterations: EncryptedFileBackend.recommendedIterations)
        openedOverflow = encryption
        return encryption
    }
}
