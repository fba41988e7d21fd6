import Crypto
import Foundation
import Logging

/// A local secret store as trustworthy as a platform keychain: every item encrypted and authenticated, every
/// write crash-safe, several processes writing at once.
///
/// A random master key, wrapped by a key derived from a passphrase (PBKDF2-HMAC-SHA256), a key file or a raw
/// key, protects random data keys; each item is sealed with the current data key (AES-256-GCM by default,
/// ChaCha20-Poly1305 as an option) and bound to its service, access group, account and key id. File names are
/// keyed hashes, so they reveal no account names. `docs/file-store-format.md` specifies the format.
///
/// ```swift
/// let backend = try EncryptedFileBackend(directory: url, key: .passphrase("correct horse battery staple"))
/// let store = AggregateSecretsStore(backend: backend)
/// ```
public final class EncryptedFileBackend: SecretsBackend {
    /// Settings for opening or creating a store.
    public struct Options: Sendable {
        /// Create the store if `directory` does not hold one (the directory must then be absent or empty).
        public var createIfMissing: Bool
        /// The cipher for a new store's items.
        public var algorithm: EncryptionAlgorithm
        /// The PBKDF2 iteration count for a new store or a new passphrase.
        public var iterations: Int
        /// The largest value accepted, in bytes.
        public var maximumValueSize: Int

        /// Creates options; the defaults create a store when needed with AES-256-GCM and OWASP's iteration count.
        public init(
            createIfMissing: Bool = true,
            algorithm: EncryptionAlgorithm = .aes256GCM,
            iterations: Int = EncryptedFileBackend.recommendedIterations,
            maximumValueSize: Int = 16 * 1024 * 1024
        ) {
            self.createIfMissing = createIfMissing
            self.algorithm = algorithm
            self.iterations = iterations
            self.maximumValueSize = maximumValueSize
        }
    }

    /// Progress of a key rotation.
    public struct RotationProgress: Sendable, Hashable {
        /// Items re-encrypted (or found already current) so far.
        public var completed: Int
        /// Items in the store.
        public var total: Int

        /// Creates a progress report.
        public init(completed: Int, total: Int) {
            self.completed = completed
            self.total = total
        }
    }

    /// The PBKDF2-HMAC-SHA256 iteration count OWASP recommends: 600,000.
    public static let recommendedIterations = KeyEncryptionKey.recommendedIterations

    let store: ItemFileStore<EncryptedItemCodec>
    private let options: Options
    private var codec: EncryptedItemCodec { store.codec }
    private var storeDirectory: StoreDirectory { store.directory }

    /// The store's directory.
    public var directory: URL { storeDirectory.root }

    /// Opens the store in `directory` with `key`, creating it first if it is missing and options allow.
    ///
    /// - Throws: ``SecretsError/wrongPassphrase(store:)`` or ``SecretsError/wrongKey(store:)`` when `key` does not
    ///   unlock the store, ``SecretsError/unavailable(_:)`` when there is no store and none may be created,
    ///   ``SecretsError/corruptData(_:)`` for a damaged header.
    public init(
        directory: URL, key: KeySource, options: Options = Options(), logger: Logger = Logger(label: "coffer.secrets")
    ) throws {
        let storeDirectory = StoreDirectory(root: directory)
        let path = storeDirectory.root.path
        let headerPath = storeDirectory.url(StoreHeader.fileName).path
        if !storeDirectory.exists {
            guard options.createIfMissing else { throw SecretsError.unavailable("there is no store at \(path)") }
        }
        if options.createIfMissing {
            try storeDirectory.create(subdirectories: [])
        }
        let ring = try storeDirectory.withExclusiveLock { () throws -> KeyRing in
            storeDirectory.removeTemporaryFiles(in: nil)
            storeDirectory.removeTemporaryFiles(in: ItemFileStore<EncryptedItemCodec>.itemsDirectory)
            if let bytes = try storeDirectory.read(StoreHeader.fileName, limit: StoreHeader.maximumFileSize) {
                let header = try StoreHeader(decoding: bytes, path: headerPath)
                let masterKey = try KeyRing.unlock(header: header, with: key, storePath: path)
                try storeDirectory.create(subdirectories: [ItemFileStore<EncryptedItemCodec>.itemsDirectory])
                return try KeyRing(header: header, headerBytes: bytes, masterKey: masterKey, storePath: path)
            }
            guard options.createIfMissing else { throw SecretsError.unavailable("there is no store at \(path)") }
            return try Self.createStore(in: storeDirectory, key: key, options: options)
        }
        self.options = options
        self.store = ItemFileStore(
            directory: storeDirectory,
            codec: EncryptedItemCodec(directory: storeDirectory, keys: ring),
            maximumValueSize: options.maximumValueSize, logger: logger)
    }

    /// Writes a new store's header; called under the lock in an absent or empty directory.
    private static func createStore(in directory: StoreDirectory, key: KeySource, options: Options) throws -> KeyRing {
        let path = directory.root.path
        let ignored: Set<String> = [StoreDirectory.lockFileName]
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        guard existing.allSatisfy(ignored.contains) else {
            throw SecretsError.unavailable(
                "\(path) is not empty and holds no Coffer store; choose an empty or new directory")
        }
        guard (1...KeyEncryptionKey.maximumIterations).contains(options.iterations) else {
            throw SecretsError.unsupported("\(options.iterations) PBKDF2 iterations")
        }
        let storeID = UUID().uuidString
        let masterKey = SymmetricKey(size: .bits256)
        let header = StoreHeader(
            storeID: storeID, algorithm: options.algorithm,
            masterKey: try KeyRing.wrap(
                masterKey: masterKey, for: key, storeID: storeID, algorithm: options.algorithm,
                iterations: options.iterations),
            dataKey: try KeyRing.makeDataKey(masterKey: masterKey, storeID: storeID, algorithm: options.algorithm))
        let bytes = try header.encoded()
        try directory.create(subdirectories: [ItemFileStore<EncryptedItemCodec>.itemsDirectory])
        try directory.write(bytes, to: StoreHeader.fileName)
        return try KeyRing(header: header, headerBytes: bytes, masterKey: masterKey, storePath: path)
    }

    /// Creates a key file of 32 random bytes with mode 0600 at `url`, refusing to replace an existing file.
    public static func createKeyFile(at url: URL) throws {
        try createKeyFile(at: url, flusher: .system)
    }

    /// ``createKeyFile(at:)`` with the flushes going through `flusher` (tests record them).
    static func createKeyFile(at url: URL, flusher: FileFlusher) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw SecretsError.io(operation: "creating key file", path: url.path, code: errno)
        }
        defer { close(descriptor) }
        let key = SymmetricKey(size: .bits256)
        let written = key.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
        guard written == KeyEncryptionKey.keyFileSize else {
            throw SecretsError.io(operation: "writing key file", path: url.path, code: errno)
        }
        guard flusher.flush(descriptor, .durable) else {
            throw SecretsError.io(operation: "syncing", path: url.path, code: errno)
        }
        // The file's bytes are durable; so must its name be, or a crash can lose the key that unlocks the store.
        try StoreDirectory.synchronizeDirectory(url.deletingLastPathComponent(), flusher: flusher)
    }

    // MARK: SecretsBackend

    /// Encrypts and stores `data` durably.
    public func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws {
        try store.save(data, for: query)
    }

    /// Reads and decrypts the item.
    ///
    /// - Throws: ``SecretsError/authenticationFailed(item:)`` when its file was modified or moved.
    public func read<Value>(_ query: SecretQuery<Value>) throws -> Data? {
        try store.read(query)
    }

    /// Removes the item.
    @discardableResult
    public func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool {
        try store.delete(query)
    }

    /// The sorted accounts of `service` in `accessGroup`; items that fail authentication are skipped and logged.
    public func listAccounts(service: String, accessGroup: String?) throws -> [String] {
        try store.listAccounts(service: service, accessGroup: accessGroup)
    }

    // MARK: Keys

    /// The algorithm new items are sealed with.
    public var algorithm: EncryptionAlgorithm { codec.keys.withLock { $0.header.itemAlgorithm } }

    /// Whether a key rotation was interrupted and items may still use an older data key;
    /// ``rotateKey(algorithm:progress:)`` finishes it.
    public var isRotationIncomplete: Bool {
        get throws {
            try codec.reloadHeader()
            return codec.keys.withLock { $0.header.dataKeys.count > 1 }
        }
    }

    /// The items whose files cannot be read (failed authentication, truncated, foreign), with the reason.
    public func damagedItems() throws -> [(fileName: String, error: SecretsError)] {
        try store.damagedItems()
    }

    /// Re-encrypts every item under a new random data key (and, if given, a new algorithm), then forgets the old
    /// keys.
    ///
    /// Crash-safe: the new key is recorded before any item changes, each item is replaced atomically, and old keys
    /// are only dropped once no item needs them. After a crash, items are readable under either key and calling
    /// this again finishes the job. Other writers wait for the rotation; readers do not. An item that cannot be
    /// decrypted stops the rotation with its error and keeps the old key, so nothing becomes unreadable; so does
    /// an error thrown by `progress`, which is how a caller cancels a rotation.
    ///
    /// - Returns: How many items were re-encrypted.
    @discardableResult
    public func rotateKey(
        algorithm newAlgorithm: EncryptionAlgorithm? = nil,
        progress: (RotationProgress) throws -> Void = { _ in }
    ) throws -> Int {
        let headerPath = storeDirectory.url(StoreHeader.fileName).path
        return try storeDirectory.withExclusiveLock {
            try codec.reloadHeader()
            var ring = codec.keys.withLock { $0 }
            let algorithm = newAlgorithm ?? ring.header.itemAlgorithm
            if ring.header.dataKeys.count == 1 || algorithm != ring.header.itemAlgorithm {
                // Record the new key (and cipher) before touching any item: from here on, every item is readable
                // under one of the header's keys, whatever happens.
                var header = ring.header
                let dataKey = try KeyRing.makeDataKey(
                    masterKey: ring.masterKey, storeID: header.storeID, algorithm: header.keyWrapAlgorithm)
                header.dataKeys.append(dataKey)
                header.currentDataKeyID = dataKey.id
                header.itemAlgorithm = algorithm
                try writeHeader(header, into: &ring, path: headerPath)
            }
            let currentID = ring.header.currentDataKeyID
            guard let currentKey = ring.dataKeys[currentID] else {
                throw SecretsError.corruptData("the store header \(headerPath) (no current data key)")
            }
            let names = try store.itemFileNames()
            var rotated = 0
            for (index, name) in names.enumerated() {
                if let file = try store.readFile(name) {
                    let opened = try codec.open(file, fileName: name)
                    guard try codec.fileName(for: opened.identity) == name else {
                        throw SecretsError.authenticationFailed(item: "item \(name) (it was moved from another name)")
                    }
                    if opened.keyID != currentID || opened.algorithm != algorithm {
                        let sealed = try codec.seal(
                            opened.value, for: opened.identity, keyID: currentID, key: currentKey,
                            algorithm: algorithm)
                        try store.writeFile(sealed, named: name)
                        rotated += 1
                    }
                }
                try progress(RotationProgress(completed: index + 1, total: names.count))
            }
            var header = ring.header
            header.dataKeys.removeAll { $0.id != currentID }
            try writeHeader(header, into: &ring, path: headerPath)
            return rotated
        }
    }

    /// Re-wraps the master key under a new passphrase. Items are untouched, so this is instant for any store size.
    public func changePassphrase(to passphrase: Passphrase) throws {
        try changeKey(to: .passphrase(passphrase))
    }

    /// Re-wraps the master key under a new key source (for example from a passphrase to a key file).
    public func changeKey(to source: KeySource) throws {
        let headerPath = storeDirectory.url(StoreHeader.fileName).path
        try storeDirectory.withExclusiveLock {
            try codec.reloadHeader()
            var ring = codec.keys.withLock { $0 }
            var header = ring.header
            header.masterKey = try KeyRing.wrap(
                masterKey: ring.masterKey, for: source, storeID: header.storeID, algorithm: header.keyWrapAlgorithm,
                iterations: header.masterKey.iterations ?? options.iterations)
            if source.protection == .pbkdf2, header.masterKey.iterations == nil {
                header.masterKey.iterations = options.iterations
            }
            try writeHeader(header, into: &ring, path: headerPath)
        }
    }

    /// Writes `header` durably and adopts it; called under the lock.
    private func writeHeader(_ header: StoreHeader, into ring: inout KeyRing, path: String) throws {
        let bytes = try header.encoded()
        try storeDirectory.write(bytes, to: StoreHeader.fileName)
        try ring.adopt(header, bytes: bytes, storePath: path)
        let adopted = ring
        codec.keys.withLock { $0 = adopted }
    }
}

extension EncryptedFileBackend {
    /// Seals `value` as the item at `account` would be, without writing it: the cipher work of a save, for
    /// benchmarks that compare it with a bare cipher.
    @_spi(Benchmarking)
    public func sealForBenchmarking(_ value: Data, account: String) throws -> Data {
        try store.codec.encode(value, for: ItemIdentity(service: "benchmark", accessGroup: nil, account: account))
    }
}
