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
        /// The PBKDF2 iteration count for a new store or a new passphrase: at least
        /// ``EncryptedFileBackend/minimumIterations``. A new wrap of an existing store's master key never uses
        /// fewer iterations than the store already has.
        public var iterations: Int
        /// The largest value accepted, in bytes.
        public var maximumValueSize: Int
        /// Lets ``iterations`` go below ``EncryptedFileBackend/minimumIterations``, down to 1: for tests only,
        /// where a store's strength does not matter and the recommended count would make every unlock slow.
        @_spi(Testing) public var allowsWeakIterationsForTesting = false

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

    /// Progress of a key rotation or a re-key.
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
    /// The fewest PBKDF2 iterations a new store or a new passphrase may use: 100,000. Stores made with fewer
    /// (by an earlier version) still open, and their next passphrase change raises the count.
    public static let minimumIterations = KeyEncryptionKey.minimumIterations
    /// The most PBKDF2 iterations a store (or any envelope Coffer reads) may ask for: more would let a hostile file
    /// stall every open.
    public static let maximumIterations = KeyEncryptionKey.maximumIterations

    let store: ItemFileStore<EncryptedItemCodec>
    private let options: Options
    private var logger: Logger { store.logger }
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
        let existed = storeDirectory.exists
        if !existed {
            guard options.createIfMissing else { throw SecretsError.unavailable("there is no store at \(path)") }
        }
        if options.createIfMissing {
            try storeDirectory.create(subdirectories: [])
        }
        let ring = try storeDirectory.withExclusiveLock { () throws -> KeyRing in
            storeDirectory.removeTemporaryFiles(in: nil)
            storeDirectory.removeTemporaryFiles(in: ItemFileStore<EncryptedItemCodec>.itemsDirectory)
            if let bytes = try storeDirectory.read(StoreHeader.fileName, limit: StoreHeader.maximumFileSize) {
                let header = try StoreHeader(decoding: bytes, path: storeDirectory.url(StoreHeader.fileName).path)
                try storeDirectory.create(subdirectories: [ItemFileStore<EncryptedItemCodec>.itemsDirectory])
                return try Self.unlock(header, bytes: bytes, in: storeDirectory, with: key)
            }
            guard options.createIfMissing else { throw SecretsError.unavailable("there is no store at \(path)") }
            return try Self.createStore(in: storeDirectory, key: key, options: options)
        }
        self.options = options
        self.store = ItemFileStore(
            directory: storeDirectory,
            codec: EncryptedItemCodec(directory: storeDirectory, keys: ring),
            maximumValueSize: options.maximumValueSize, logger: logger)
        if existed { store.warnAboutAccess() }
    }

    /// Unwraps the master key of an existing store and, for a version 1 header, writes it again as version 2
    /// (authenticated, with a generation) under the same key; called under the lock.
    private static func unlock(
        _ header: StoreHeader, bytes: Data, in directory: StoreDirectory, with key: KeySource
    ) throws -> KeyRing {
        let path = directory.root.path
        let (masterKey, kek) = try KeyRing.unlock(header: header, with: key, storePath: path)
        let ring = try KeyRing(header: header, headerBytes: bytes, masterKey: masterKey, storePath: path)
        guard header.version < StoreHeader.currentVersion else { return ring }
        var upgraded = header
        upgraded.masterKeyID = SecureRandom.hex(byteCount: 8)
        upgraded.masterKey = try KeyRing.wrap(
            masterKey: masterKey, id: upgraded.masterKeyID!, under: kek, salt: header.masterKey.salt,
            protection: header.masterKey.protection, iterations: header.masterKey.iterations ?? 0,
            storeID: header.storeID, algorithm: header.keyWrapAlgorithm)
        return try writeNewHeader(ring.signed(upgraded), masterKey: masterKey, in: directory)
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
        let (header, masterKey) = try KeyRing.makeStore(
            key: key, algorithm: options.algorithm,
            iterations: try options.iterationsForNewWrap(of: key, current: nil))
        try directory.create(subdirectories: [ItemFileStore<EncryptedItemCodec>.itemsDirectory])
        return try writeNewHeader(header, masterKey: masterKey, in: directory)
    }

    /// Writes a signed header durably and returns the ring it makes; called under the lock.
    private static func writeNewHeader(_ header: StoreHeader, masterKey: SymmetricKey, in directory: StoreDirectory)
        throws
        -> KeyRing
    {
        let bytes = try header.encoded()
        try directory.write(bytes, to: StoreHeader.fileName)
        return try KeyRing(header: header, headerBytes: bytes, masterKey: masterKey, storePath: directory.root.path)
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

    /// Whether a key rotation or a re-key was interrupted and items may still use an older key;
    /// ``rotateKey(algorithm:progress:)`` or ``rekey(to:progress:)`` finishes it.
    public var isRotationIncomplete: Bool {
        get throws {
            try codec.reloadHeader()
            return codec.keys.withLock { $0.header.dataKeys.count > 1 || $0.header.previousMasterKey != nil }
        }
    }

    /// The items whose files cannot be read (failed authentication, truncated, foreign), with the reason.
    public func damagedItems() throws -> [(fileName: String, error: SecretsError)] {
        try store.damagedItems()
    }

    /// Re-encrypts every item under a new random data key (and, if given, a new algorithm), then forgets the old
    /// keys. The master key stays: after a leak of the passphrase, use ``rekey(to:progress:)``.
    ///
    /// Crash-safe: the new key is recorded before any item changes, each item is replaced atomically, and old keys
    /// are only dropped once no item needs them. After a crash, items are readable under either key and calling
    /// this again finishes the job (an interrupted re-key too). Other writers wait for the rotation; readers do
    /// not. A file that cannot be read under any of the store's keys (tampered, truncated, foreign, under another
    /// item's name) cannot block it: it is moved to `quarantine/` in the store's directory and reported in the
    /// result. An error thrown by `progress` stops the rotation, which is how a caller cancels one; so does any
    /// other error, and the old keys are then kept.
    ///
    /// - Throws: `rolledBack` when items were sealed after the store's header (the header is an older copy).
    @discardableResult
    public func rotateKey(
        algorithm newAlgorithm: EncryptionAlgorithm? = nil,
        progress: (RotationProgress) throws -> Void = { _ in }
    ) throws -> RotationResult {
        try storeDirectory.withExclusiveLock {
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
                ring = try writeHeader(header, ring: ring)
            }
            return try resealItems(ring: ring, progress: progress)
        }
    }

    /// Makes a new master key and moves the whole store under it: new data keys, new file names, every item
    /// sealed again, the master key wrapped for `source` (the same passphrase or key, or a new one).
    ///
    /// This is what revokes a leaked passphrase or key file: ``changeKey(to:)`` only wraps the same master key
    /// anew, so an old copy of `store.json` and the old passphrase still open every item, current and future.
    /// After a re-key they open nothing the store holds from then on.
    ///
    /// Crash-safe and resumable like ``rotateKey(algorithm:progress:)``: the first header write switches the store
    /// to the new master key (from then on only `source` opens it) and keeps the old one wrapped under the new one
    /// until every item is moved; calling this again, or ``rotateKey(algorithm:progress:)``, finishes an
    /// interrupted re-key. Other processes that have the store open must open it again with `source`.
    @discardableResult
    public func rekey(to source: KeySource, progress: (RotationProgress) throws -> Void = { _ in }) throws
        -> RotationResult
    {
        try storeDirectory.withExclusiveLock {
            try codec.reloadHeader()
            let ring = codec.keys.withLock { $0 }
            var header = ring.header
            let iterations = try options.iterationsForNewWrap(of: source, current: header.masterKey.iterations)
            guard header.previousMasterKey == nil else {
                // A re-key was interrupted: its master key stays, wrapped for `source`, and the items move on.
                header.masterKey = try ring.wrapMasterKey(for: source, iterations: iterations)
                return try resealItems(ring: try writeHeader(header, ring: ring), progress: progress)
            }
            let masterKey = SymmetricKey(size: .bits256)
            let masterKeyID = SecureRandom.hex(byteCount: 8)
            header.previousMasterKey = try KeyRing.wrap(
                previous: ring.masterKey, id: header.masterKeyID ?? SecureRandom.hex(byteCount: 8),
                dataKeys: header.dataKeys, under: masterKey, storeID: header.storeID,
                algorithm: header.keyWrapAlgorithm)
            header.masterKeyID = masterKeyID
            header.masterKey = try KeyRing.wrap(
                masterKey: masterKey, id: masterKeyID, for: source, storeID: header.storeID,
                algorithm: header.keyWrapAlgorithm, iterations: iterations)
            let dataKey = try KeyRing.makeDataKey(
                masterKey: masterKey, storeID: header.storeID, algorithm: header.keyWrapAlgorithm)
            header.dataKeys = [dataKey]
            header.currentDataKeyID = dataKey.id
            let newRing = try Self.writeNewHeader(
                KeyRing.signed(header, generation: header.currentGeneration + 1, masterKey: masterKey),
                masterKey: masterKey, in: storeDirectory)
            codec.keys.withLock { $0 = newRing }
            return try resealItems(ring: newRing, progress: progress)
        }
    }

    /// Seals every item that is not yet under the current data key, cipher and file-name key again, quarantines
    /// files that cannot be read, then drops the keys no item needs; called under the lock.
    private func resealItems(ring: KeyRing, progress: (RotationProgress) throws -> Void) throws -> RotationResult {
        let sealing = try codec.sealingKey()
        let names = try store.itemFileNames()
        var result = RotationResult(resealed: 0, quarantined: [])
        for (index, name) in names.enumerated() {
            if let file = try store.readFile(name) {
                do {
                    try reseal(file, named: name, with: sealing, result: &result)
                } catch let error as SecretsError where error.isDamage {
                    let movedTo = try storeDirectory.quarantine(store.relativePath(name))
                    logger.warning(
                        "moved an unreadable item file to quarantine",
                        metadata: ["file": "\(name)", "to": "\(movedTo)", "reason": "\(error)"])
                    result.quarantined.append(QuarantinedItem(fileName: name, location: movedTo, reason: error))
                }
            }
            try progress(RotationProgress(completed: index + 1, total: names.count))
        }
        var header = codec.keys.withLock { $0.header }
        header.dataKeys.removeAll { $0.id != sealing.id }
        header.previousMasterKey = nil
        _ = try writeHeader(header, ring: ring)
        return result
    }

    /// Seals one item file again under `sealing` and the current file name, if it is not already.
    private func reseal(
        _ file: Data, named name: String, with sealing: EncryptedItemCodec.SealingKey, result: inout RotationResult
    ) throws {
        let opened = try codec.open(file, fileName: name)
        let target = try codec.fileName(for: opened.identity)
        if name == target, opened.keyID == sealing.id, opened.algorithm == sealing.algorithm { return }
        if name != target, try store.fileExists(target) {
            // The item was already moved, or written anew after an interrupted re-key: that copy is the newer.
            _ = try storeDirectory.remove(store.relativePath(name))
            return
        }
        try store.writeFile(try codec.seal(opened.value, for: opened.identity, with: sealing), named: target)
        if name != target { _ = try storeDirectory.remove(store.relativePath(name)) }
        result.resealed += 1
    }

    /// Re-wraps the master key under a new passphrase. Items are untouched, so this is instant for any store size.
    ///
    /// The master key does not change: whoever holds an old copy of `store.json` and the old passphrase can still
    /// unwrap it. To revoke a passphrase that leaked, use ``rekey(to:progress:)``.
    public func changePassphrase(to passphrase: Passphrase) throws {
        try changeKey(to: .passphrase(passphrase))
    }

    /// Re-wraps the master key under a new key source (for example from a passphrase to a key file), never with
    /// fewer PBKDF2 iterations than the store has. See ``changePassphrase(to:)`` for what this does not revoke.
    public func changeKey(to source: KeySource) throws {
        try storeDirectory.withExclusiveLock {
            try codec.reloadHeader()
            let ring = codec.keys.withLock { $0 }
            var header = ring.header
            header.masterKey = try ring.wrapMasterKey(
                for: source,
                iterations: try options.iterationsForNewWrap(of: source, current: header.masterKey.iterations))
            _ = try writeHeader(header, ring: ring)
        }
    }

    /// Signs `header` at the next generation, writes it durably and adopts it; called under the lock.
    private func writeHeader(_ header: StoreHeader, ring: KeyRing) throws -> KeyRing {
        let signed = ring.signed(header)
        let bytes = try signed.encoded()
        try storeDirectory.write(bytes, to: StoreHeader.fileName)
        var adopted = ring
        try adopted.adopt(signed, bytes: bytes, storePath: storeDirectory.root.path)
        let result = adopted
        codec.keys.withLock { $0 = result }
        return result
    }
}

extension EncryptedFileBackend.Options {
    /// Options whose passphrase wraps use 1,000 PBKDF2 iterations, far below the minimum: for tests only, so that
    /// each unlock takes microseconds. The format and code path are those of the default.
    @_spi(Testing) public static func weakKeyDerivationForTesting(
        createIfMissing: Bool = true, algorithm: EncryptionAlgorithm = .aes256GCM,
        maximumValueSize: Int = 16 * 1024 * 1024
    ) -> Self {
        var options = Self(
            createIfMissing: createIfMissing, algorithm: algorithm, iterations: 1_000,
            maximumValueSize: maximumValueSize)
        options.allowsWeakIterationsForTesting = true
        return options
    }

    /// The iteration count for a new wrap of the master key for `source`: only passphrases use one.
    func iterationsForNewWrap(of source: KeySource, current: Int?) throws -> Int {
        guard source.protection == .pbkdf2 else { return 0 }
        return try KeyEncryptionKey.iterationsForNewWrap(
            requested: iterations, current: current, allowingWeak: allowsWeakIterationsForTesting)
    }
}

extension SecretsError {
    /// Whether this is what an unreadable item file throws (so that it can be set aside), rather than a failure of
    /// the system or the store as a whole.
    var isDamage: Bool {
        switch self {
        case .authenticationFailed, .corruptData, .unsupported: return true
        default: return false
        }
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
