import Foundation
import Logging
import Secrets

/// Files for the ``StorageDomain/fileSystem(directory:)``, ``StorageDomain/encryptedFileSystem(directory:)`` and
/// ``StorageDomain/appGroupFileSystem(identifier:directory:)`` domains: read, write, delete, list and size.
///
/// Values are kept in Coffer's file stores, not in loose files: ``Secrets/FileBackend`` for plain values and
/// ``Secrets/EncryptedFileBackend`` for encrypted ones. Every write is atomic and durable (a crash leaves the old
/// or the new value, never a torn one), several processes (an app and its extensions sharing an app group) may
/// write at once, and file names are hashes, so a key's name can never become a path.
public actor FileValueStore {
    /// How an encrypted store is opened.
    public struct Encryption: Sendable {
        /// The cipher for the store's items.
        public var algorithm: EncryptionAlgorithm
        /// What unlocks the store.
        public var key: KeySource
        /// PBKDF2 iterations, for a passphrase.
        public var iterations: Int

        /// Describes an encrypted store.
        public init(algorithm: EncryptionAlgorithm, key: KeySource, iterations: Int) {
            self.algorithm = algorithm
            self.key = key
            self.iterations = iterations
        }
    }

    /// The folder LocalData keeps its stores in, inside each directory.
    public static let folderName = "LocalData"

    /// The plain file store of a ``FileDirectory`` at `directory`: `LocalData/files`.
    public static func plainStoreDirectory(in directory: URL) -> URL {
        directory.appending(path: "\(folderName)/files", directoryHint: .isDirectory)
    }

    /// The encrypted file store at `directory` for one cipher, key derivation and key material source:
    /// `LocalData/encrypted/<cipher>-<derivation>-<source>` (say `aes-256-gcm-hkdf-default`). Stores with
    /// different ciphers or keys never mix.
    public static func encryptedStoreDirectory(
        in directory: URL, algorithm: EncryptionAlgorithm, keyDerivation: KeyDerivation, source: KeyMaterialSource
    ) -> URL {
        let derivation: String
        switch keyDerivation {
        case .pbkdf2: derivation = "pbkdf2"
        case .hkdf: derivation = "hkdf"
        }
        return directory.appending(
            path: "\(folderName)/encrypted/\(algorithm.rawValue)-\(derivation)-\(source.rawValue)",
            directoryHint: .isDirectory)
    }

    private let service: String
    private let maximumValueSize: Int
    private let logger: Logger
    private var stores: [URL: any SecretsBackend] = [:]

    /// Stores values under `service` (the router's application identifier), up to `maximumValueSize` bytes each.
    public init(
        service: String, maximumValueSize: Int = 16 * 1024 * 1024, logger: Logger = Logger(label: "coffer.localdata")
    ) {
        self.service = service
        self.maximumValueSize = maximumValueSize
        self.logger = logger
    }

    /// Writes `data` as the value named `name` in the store at `directory`.
    public func write(_ data: Data, name: String, in directory: URL, encryption: Encryption? = nil) throws {
        try store(at: directory, encryption: encryption).save(data, for: query(name))
    }

    /// The value named `name`, or `nil`.
    public func read(name: String, in directory: URL, encryption: Encryption? = nil) throws -> Data? {
        try store(at: directory, encryption: encryption).read(query(name))
    }

    /// Removes the value named `name`; returns whether there was one.
    @discardableResult
    public func delete(name: String, in directory: URL, encryption: Encryption? = nil) throws -> Bool {
        try store(at: directory, encryption: encryption).delete(query(name))
    }

    /// The names of the values in the store at `directory`, sorted.
    public func list(in directory: URL, encryption: Encryption? = nil) throws -> [String] {
        try store(at: directory, encryption: encryption).listAccounts(service: service, accessGroup: nil)
    }

    /// The size of the value named `name` in bytes, or `nil` when there is none.
    public func size(name: String, in directory: URL, encryption: Encryption? = nil) throws -> Int? {
        try read(name: name, in: directory, encryption: encryption)?.count
    }

    /// The bytes the store at `directory` takes on disk (headers, encryption and all).
    public func diskSize(of directory: URL) throws -> Int {
        let keys: Set<URLResourceKey> = [.fileSizeKey, .isRegularFileKey]
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: Array(keys))
        else { return 0 }
        var total = 0
        for case let url as URL in files {
            let values = try url.resourceValues(forKeys: keys)
            if values.isRegularFile == true { total += values.fileSize ?? 0 }
        }
        return total
    }

    /// The store at `directory`, opened once and kept (by URL: give the same URL each time).
    ///
    /// - Throws: `wrongKey`/`wrongPassphrase` when `encryption` does not unlock an existing store, and the file
    ///   store's errors.
    public func store(at directory: URL, encryption: Encryption?) throws -> any SecretsBackend {
        if let store = stores[directory] { return store }
        let store: any SecretsBackend
        if let encryption {
            store = try EncryptedFileBackend(
                directory: directory, key: encryption.key,
                options: .init(
                    algorithm: encryption.algorithm, iterations: encryption.iterations,
                    maximumValueSize: maximumValueSize),
                logger: logger)
        } else {
            store = try FileBackend(directory: directory, maximumValueSize: maximumValueSize, logger: logger)
        }
        stores[directory] = store
        return store
    }

    /// Re-encrypts every value of the encrypted store at `directory` under a fresh data key (and `algorithm`, if
    /// given); see ``Secrets/EncryptedFileBackend/rotateKey(algorithm:progress:)``.
    ///
    /// - Returns: How many values were re-encrypted, and the unreadable files that were set aside.
    @discardableResult
    public func rotateKey(
        in directory: URL, encryption: Encryption, algorithm: EncryptionAlgorithm? = nil,
        progress: (EncryptedFileBackend.RotationProgress) throws -> Void = { _ in }
    ) throws -> RotationResult {
        try encryptedStore(at: directory, encryption: encryption).rotateKey(algorithm: algorithm, progress: progress)
    }

    /// Re-wraps the encrypted store at `directory` under `newKey`; the values are untouched.
    public func changeKey(in directory: URL, encryption: Encryption, to newKey: KeySource) throws {
        try encryptedStore(at: directory, encryption: encryption).changeKey(to: newKey)
        close(directory)
    }

    /// Moves the encrypted store at `directory` under a new master key protected by `newKey`, re-encrypting every
    /// value; see ``Secrets/EncryptedFileBackend/rekey(to:progress:)``.
    @discardableResult
    public func rekey(
        in directory: URL, encryption: Encryption, to newKey: KeySource,
        progress: (EncryptedFileBackend.RotationProgress) throws -> Void = { _ in }
    ) throws -> RotationResult {
        defer { close(directory) }
        return try encryptedStore(at: directory, encryption: encryption).rekey(to: newKey, progress: progress)
    }

    private func encryptedStore(at directory: URL, encryption: Encryption) throws -> EncryptedFileBackend {
        guard let store = try store(at: directory, encryption: encryption) as? EncryptedFileBackend else {
            throw SecretsError.unsupported("key rotation of the plain file store at \(directory.path)")
        }
        return store
    }

    /// Forgets the opened store at `directory` (after its key changed, say), so the next use opens it again.
    public func close(_ directory: URL) {
        stores[directory] = nil
    }

    private func query(_ name: String) -> SecretQuery<Data> {
        SecretQuery(service: service, account: name)
    }
}
