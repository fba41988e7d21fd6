import Crypto
import Foundation

/// The unwrapped keys of an encrypted store, and the authenticated header they came from.
///
/// The master key is unwrapped once per unlock and never written anywhere; the data keys, the file-name key and
/// the header's MAC key come from it. While a re-key is unfinished the ring also holds the previous master key's
/// data keys and file-name key, so that items not yet re-sealed stay readable. The passphrase or key file itself
/// is not kept.
struct KeyRing: Sendable {
    var headerBytes: Data
    private(set) var header: StoreHeader
    let masterKey: SymmetricKey
    let nameKey: SymmetricKey
    /// The file-name key of the previous master key, while a re-key is unfinished.
    private(set) var previousNameKey: SymmetricKey?
    /// Every data key the header lists, current and previous, by id.
    private(set) var dataKeys: [String: SymmetricKey]
    private let macKey: SymmetricKey

    static func masterKeyContext(storeID: String, masterKeyID: String?) -> Data {
        guard let masterKeyID else { return Data("coffer.master-key.v1|\(storeID)".utf8) }
        return Data("coffer.master-key.v2|\(storeID)|\(masterKeyID)".utf8)
    }
    static func dataKeyContext(storeID: String, keyID: String) -> Data {
        Data("coffer.data-key.v1|\(storeID)|\(keyID)".utf8)
    }
    static func previousMasterKeyContext(storeID: String, keyID: String) -> Data {
        Data("coffer.previous-master-key.v1|\(storeID)|\(keyID)".utf8)
    }

    private static func derive(_ info: String, from masterKey: SymmetricKey, storeID: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: masterKey, salt: Data(storeID.utf8), info: Data(info.utf8), outputByteCount: 32)
    }

    /// Builds the ring from a header and its already unwrapped master key, checking the header's MAC (version 2).
    init(header: StoreHeader, headerBytes: Data, masterKey: SymmetricKey, storePath: String) throws {
        self.header = header
        self.headerBytes = headerBytes
        self.masterKey = masterKey
        self.nameKey = Self.derive("coffer.item-names.v1", from: masterKey, storeID: header.storeID)
        self.macKey = Self.derive("coffer.header-mac.v1", from: masterKey, storeID: header.storeID)
        self.dataKeys = [:]
        try authenticate(header, storePath: storePath)
        try unwrapKeys(storePath: storePath)
    }

    // MARK: Unlocking and wrapping

    /// Unwraps the master key from `header` with the key-encryption key derived from `source`, and returns that
    /// key-encryption key too (an upgrade re-wraps with it).
    static func unlock(header: StoreHeader, with source: KeySource, storePath: String) throws -> (
        masterKey: SymmetricKey, keyEncryptionKey: SymmetricKey
    ) {
        guard source.protection == header.masterKey.protection else {
            throw SecretsError.unsupported(
                "the store at \(storePath) is protected by \(header.masterKey.protection.noun), "
                    + "not \(source.protection.noun)")
        }
        let kek = try KeyEncryptionKey.derive(
            from: source, salt: header.masterKey.salt, iterations: header.masterKey.iterations ?? 0)
        do {
            let bytes = try header.keyWrapAlgorithm.open(
                header.masterKey.wrapped, using: kek,
                authenticating: masterKeyContext(
                    storeID: header.storeID, masterKeyID: header.version >= 2 ? header.masterKeyID : nil))
            return (SymmetricKey(data: bytes), kek)
        } catch {
            if case .passphrase = source { throw SecretsError.wrongPassphrase(store: storePath) }
            throw SecretsError.wrongKey(store: storePath)
        }
    }

    /// A new store's signed header (generation 1: a random store id, master key and data key, the master key
    /// wrapped for `source`) and its master key. The encrypted file store writes it to `store.json`, a store in
    /// database rows to its header row.
    static func makeStore(key source: KeySource, algorithm: EncryptionAlgorithm, iterations: Int) throws -> (
        header: StoreHeader, masterKey: SymmetricKey
    ) {
        let storeID = UUID().uuidString
        let masterKeyID = SecureRandom.hex(byteCount: 8)
        let masterKey = SymmetricKey(size: .bits256)
        let header = StoreHeader(
            storeID: storeID, masterKeyID: masterKeyID, algorithm: algorithm,
            masterKey: try wrap(
                masterKey: masterKey, id: masterKeyID, for: source, storeID: storeID, algorithm: algorithm,
                iterations: iterations),
            dataKey: try makeDataKey(masterKey: masterKey, storeID: storeID, algorithm: algorithm))
        return (signed(header, generation: 1, masterKey: masterKey), masterKey)
    }

    /// Wraps `masterKey` for `source`, with a fresh salt.
    static func wrap(
        masterKey: SymmetricKey, id masterKeyID: String, for source: KeySource, storeID: String,
        algorithm: EncryptionAlgorithm, iterations: Int
    ) throws -> StoreHeader.MasterKey {
        let salt = SecureRandom.bytes(count: 32)
        let kek = try KeyEncryptionKey.derive(from: source, salt: salt, iterations: iterations)
        return try wrap(
            masterKey: masterKey, id: masterKeyID, under: kek, salt: salt, protection: source.protection,
            iterations: iterations, storeID: storeID, algorithm: algorithm)
    }

    /// This ring's master key wrapped anew for `source` (a passphrase change, or a re-key resumed with its key).
    /// The ring's header is version 2 (an older one is upgraded when the store opens), so it names the master key.
    func wrapMasterKey(for source: KeySource, iterations: Int) throws -> StoreHeader.MasterKey {
        try Self.wrap(
            masterKey: masterKey, id: header.masterKeyID ?? "", for: source, storeID: header.storeID,
            algorithm: header.keyWrapAlgorithm, iterations: iterations)
    }

    /// Wraps `masterKey` under an already derived key-encryption key and its salt.
    static func wrap(
        masterKey: SymmetricKey, id masterKeyID: String, under kek: SymmetricKey, salt: Data,
        protection: MasterKeyProtection, iterations: Int, storeID: String, algorithm: EncryptionAlgorithm
    ) throws -> StoreHeader.MasterKey {
        let wrapped = try seal(
            masterKey, under: kek, algorithm: algorithm,
            context: masterKeyContext(storeID: storeID, masterKeyID: masterKeyID))
        return StoreHeader.MasterKey(
            protection: protection, iterations: protection == .pbkdf2 ? iterations : nil, salt: salt, wrapped: wrapped)
    }

    /// A new random data key, wrapped under `masterKey`.
    static func makeDataKey(masterKey: SymmetricKey, storeID: String, algorithm: EncryptionAlgorithm) throws
        -> StoreHeader.DataKey
    {
        let id = SecureRandom.hex(byteCount: 8)
        let wrapped = try seal(
            SymmetricKey(size: .bits256), under: masterKey, algorithm: algorithm,
            context: dataKeyContext(storeID: storeID, keyID: id))
        return StoreHeader.DataKey(id: id, wrapped: wrapped, created: Date(timeIntervalSince1970: Date().wholeSeconds))
    }

    /// `previous` (the master key a re-key replaces) wrapped under `masterKey`, with the data keys it wraps.
    static func wrap(
        previous: SymmetricKey, id: String, dataKeys: [StoreHeader.DataKey], under masterKey: SymmetricKey,
        storeID: String, algorithm: EncryptionAlgorithm
    ) throws -> StoreHeader.PreviousMasterKey {
        let wrapped = try seal(
            previous, under: masterKey, algorithm: algorithm,
            context: previousMasterKeyContext(storeID: storeID, keyID: id))
        return StoreHeader.PreviousMasterKey(id: id, wrapped: wrapped, dataKeys: dataKeys)
    }

    private static func seal(
        _ key: SymmetricKey, under wrappingKey: SymmetricKey, algorithm: EncryptionAlgorithm, context: Data
    ) throws -> Data {
        try key.withUnsafeBytes { try algorithm.seal(Data($0), using: wrappingKey, authenticating: context) }
    }

    // MARK: Headers

    /// `header` at the next generation, as version 2, with its MAC under this ring's master key: what to write.
    func signed(_ header: StoreHeader) -> StoreHeader {
        Self.signed(
            header, generation: max(header.currentGeneration, self.header.currentGeneration) + 1, masterKey: masterKey)
    }

    /// `header` at `generation`, as version 2, with its MAC under a key derived from `masterKey`.
    static func signed(_ header: StoreHeader, generation: UInt64, masterKey: SymmetricKey) -> StoreHeader {
        var next = header
        next.version = StoreHeader.currentVersion
        next.generation = generation
        next.mac = nil
        let macKey = derive("coffer.header-mac.v1", from: masterKey, storeID: header.storeID)
        next.mac = Data(HMAC<SHA256>.authenticationCode(for: next.authenticatedBytes, using: macKey))
        return next
    }

    /// Replaces the header with one read from disk (another process, or this one, wrote it), unwrapping any data
    /// key not yet known.
    ///
    /// - Throws: `unavailable` when the store was re-keyed by another process (this ring's master key is no
    ///   longer the store's), `corruptData` for a header that fails its MAC or was turned back into version 1,
    ///   `rolledBack` for a header older than the one this ring has seen.
    mutating func adopt(_ newHeader: StoreHeader, bytes: Data, storePath: String) throws {
        guard newHeader.storeID == header.storeID else {
            throw SecretsError.corruptData("the store header \(storePath) (it now belongs to another store)")
        }
        if header.version >= 2, newHeader.version >= 2, newHeader.masterKeyID != header.masterKeyID {
            throw SecretsError.unavailable(
                "the store at \(storePath) was re-keyed by another process; open it again with its new key")
        }
        guard newHeader.version >= header.version else {
            throw SecretsError.corruptData("the store header \(storePath) (turned back to format version 1)")
        }
        try authenticate(newHeader, storePath: storePath)
        guard newHeader.currentGeneration >= header.currentGeneration else {
            throw SecretsError.rolledBack(
                "the store header \(storePath) (generation \(newHeader.currentGeneration) after "
                    + "\(header.currentGeneration))")
        }
        header = newHeader
        headerBytes = bytes
        try unwrapKeys(storePath: storePath)
    }

    /// Checks a version 2 header's MAC, in constant time.
    private func authenticate(_ header: StoreHeader, storePath: String) throws {
        guard header.version >= 2 else { return }
        guard let mac = header.mac,
            HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: header.authenticatedBytes, using: macKey)
        else {
            throw SecretsError.corruptData("the store header \(storePath) (it fails authentication: it was edited)")
        }
    }

    // MARK: Data keys

    /// The id of the data key `id` belongs to the previous master key (a re-key is unfinished).
    func isPrevious(dataKey id: String) -> Bool {
        header.previousMasterKey?.dataKeys.contains { $0.id == id } ?? false
    }

    private mutating func unwrapKeys(storePath: String) throws {
        let storeID = header.storeID
        var keys: [String: SymmetricKey] = [:]
        func unwrap(_ list: [StoreHeader.DataKey], under wrappingKey: SymmetricKey) throws {
            for dataKey in list {
                if let known = dataKeys[dataKey.id] {
                    keys[dataKey.id] = known
                    continue
                }
                keys[dataKey.id] = try open(
                    dataKey.wrapped, under: wrappingKey,
                    context: Self.dataKeyContext(storeID: storeID, keyID: dataKey.id),
                    what: "data key \(dataKey.id)", storePath: storePath)
            }
        }
        try unwrap(header.dataKeys, under: masterKey)
        previousNameKey = nil
        if let previous = header.previousMasterKey {
            let previousKey = try open(
                previous.wrapped, under: masterKey,
                context: Self.previousMasterKeyContext(storeID: storeID, keyID: previous.id),
                what: "previous master key", storePath: storePath)
            try unwrap(previous.dataKeys, under: previousKey)
            previousNameKey = Self.derive("coffer.item-names.v1", from: previousKey, storeID: storeID)
        }
        dataKeys = keys
    }

    private func open(_ wrapped: Data, under key: SymmetricKey, context: Data, what: String, storePath: String) throws
        -> SymmetricKey
    {
        do {
            return SymmetricKey(data: try header.keyWrapAlgorithm.open(wrapped, using: key, authenticating: context))
        } catch {
            throw SecretsError.corruptData("the store header \(storePath) (\(what) fails to unwrap)")
        }
    }
}

extension Date {
    /// Seconds since 1970, without the fraction.
    var wholeSeconds: TimeInterval { timeIntervalSince1970.rounded(.down) }
}
