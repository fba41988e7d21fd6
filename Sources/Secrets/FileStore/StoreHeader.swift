import Crypto
import Foundation

/// The JSON header (`store.json`) of an encrypted file store. See `docs/file-store-format.md`.
///
/// Version 2 adds a generation counter, an id for the master key, the previous master key while a re-key is
/// unfinished, and a MAC over all of it keyed from the master key. Version 1 headers are read and replaced by
/// version 2 when the store is opened.
struct StoreHeader: Codable, Sendable, Equatable {
    static let formatName = "coffer-encrypted-file-store"
    static let currentVersion = 2
    static let fileName = "store.json"
    static let maximumFileSize = 64 * 1024
    static let saltSizes = 16...64
    static let maximumDataKeys = 64
    /// A wrapped 256-bit key: 32 bytes plus nonce and tag.
    static let wrappedKeySize = 32 + EncryptionAlgorithm.sealedOverhead

    struct MasterKey: Codable, Sendable, Equatable {
        var protection: MasterKeyProtection
        var iterations: Int?
        var salt: Data
        var wrapped: Data
    }

    struct DataKey: Codable, Sendable, Equatable {
        var id: String
        var wrapped: Data
        /// Whole seconds, so that it reads back exactly as it was authenticated.
        var created: Date
    }

    /// The master key a re-key replaces, wrapped under the new one, with the data keys it wraps: kept until every
    /// item is sealed under the new keys.
    struct PreviousMasterKey: Codable, Sendable, Equatable {
        var id: String
        var wrapped: Data
        var dataKeys: [DataKey]
    }

    var format: String
    var version: Int
    var storeID: String
    /// Counts the header's writes (version 2). Items record the generation they were sealed under, so an item
    /// newer than the header shows that the header was replaced by an older copy.
    var generation: UInt64?
    /// Names the master key (version 2); it changes with a re-key.
    var masterKeyID: String?
    /// The cipher that wraps the master key and the data keys; fixed when the store is created.
    var keyWrapAlgorithm: EncryptionAlgorithm
    /// The cipher new items are sealed with; a key rotation can change it.
    var itemAlgorithm: EncryptionAlgorithm
    var masterKey: MasterKey
    var dataKeys: [DataKey]
    var currentDataKeyID: String
    /// Present while a re-key is unfinished.
    var previousMasterKey: PreviousMasterKey?
    /// HMAC-SHA256 of ``authenticatedBytes`` under a key derived from the master key (version 2).
    var mac: Data?

    var currentDataKey: DataKey? { dataKeys.first { $0.id == currentDataKeyID } }

    /// The header's generation; a version 1 header counts as generation 0.
    var currentGeneration: UInt64 { generation ?? 0 }

    /// A canonical binary encoding of every field but the MAC, independent of JSON formatting.
    var authenticatedBytes: Data {
        var writer = ByteWriter()
        func text(_ string: String) { writer.appendLengthPrefixed(Data(string.utf8)) }
        func list(_ keys: [DataKey]) {
            writer.append(UInt32(keys.count))
            for key in keys {
                text(key.id)
                writer.appendLengthPrefixed(key.wrapped)
                writer.append(Int64(key.created.timeIntervalSince1970.rounded(.down)))
            }
        }
        text("coffer.store-header.v2")
        text(format)
        writer.append(UInt32(clamping: version))
        text(storeID)
        writer.append(currentGeneration)
        text(masterKeyID ?? "")
        text(keyWrapAlgorithm.rawValue)
        text(itemAlgorithm.rawValue)
        text(masterKey.protection.rawValue)
        writer.append(UInt32(clamping: masterKey.iterations ?? 0))
        writer.appendLengthPrefixed(masterKey.salt)
        writer.appendLengthPrefixed(masterKey.wrapped)
        list(dataKeys)
        text(currentDataKeyID)
        if let previous = previousMasterKey {
            writer.append(UInt8(1))
            text(previous.id)
            writer.appendLengthPrefixed(previous.wrapped)
            list(previous.dataKeys)
        } else {
            writer.append(UInt8(0))
        }
        return writer.data
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(self)
    }

    /// Parses and checks a header, capping every parameter a hostile file could use to stall or crash a reader.
    init(decoding data: Data, path: String) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let header: StoreHeader
        do {
            header = try decoder.decode(StoreHeader.self, from: data)
        } catch {
            throw SecretsError.corruptData("the store header \(path) (not a valid header)")
        }
        guard header.format == Self.formatName else {
            throw SecretsError.corruptData("the store header \(path) (not a Coffer encrypted store)")
        }
        guard header.version <= Self.currentVersion else {
            throw SecretsError.unsupported(
                "the store at \(path) has format version \(header.version); upgrade Coffer to open it")
        }
        func check(_ condition: Bool, _ problem: String) throws {
            guard condition else { throw SecretsError.corruptData("the store header \(path) (\(problem))") }
        }
        try check(header.version >= 1, "version \(header.version)")
        if header.version == 1 {
            try check(
                header.generation == nil && header.masterKeyID == nil && header.mac == nil
                    && header.previousMasterKey == nil, "a version 1 header with fields of version 2")
        } else {
            try check(header.generation != nil, "no generation")
            try check(header.masterKeyID.map(Self.isKeyID) == true, "master key id")
            try check(header.mac?.count == SHA256.byteCount, "MAC size")
        }
        try check(Self.saltSizes.contains(header.masterKey.salt.count), "salt size")
        try check(header.masterKey.wrapped.count == Self.wrappedKeySize, "wrapped master key size")
        if header.masterKey.protection == .pbkdf2 {
            let iterations = header.masterKey.iterations ?? 0
            try check((1...KeyEncryptionKey.maximumIterations).contains(iterations), "iteration count \(iterations)")
        }
        try check((1...Self.maximumDataKeys).contains(header.dataKeys.count), "number of data keys")
        try check(header.dataKeys.allSatisfy(Self.isWellFormed), "data key format")
        try check(header.currentDataKey != nil, "no current data key")
        if let previous = header.previousMasterKey {
            try check(Self.isKeyID(previous.id) && previous.wrapped.count == Self.wrappedKeySize, "previous master key")
            try check((1...Self.maximumDataKeys).contains(previous.dataKeys.count), "number of previous data keys")
            try check(previous.dataKeys.allSatisfy(Self.isWellFormed), "previous data key format")
        }
        self = header
    }

    /// Whether `id` is 16 lowercase hexadecimal digits, the form of key ids.
    static func isKeyID(_ id: String) -> Bool {
        id.utf8.count == 16 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private static func isWellFormed(_ key: DataKey) -> Bool {
        key.wrapped.count == wrappedKeySize && isKeyID(key.id)
    }

    /// A new store's header: generation 1, one data key, no MAC yet (``KeyRing`` signs it).
    init(
        storeID: String, masterKeyID: String, algorithm: EncryptionAlgorithm, masterKey: MasterKey, dataKey: DataKey
    ) {
        self.format = Self.formatName
        self.version = Self.currentVersion
        self.storeID = storeID
        self.generation = 1
        self.masterKeyID = masterKeyID
        self.keyWrapAlgorithm = algorithm
        self.itemAlgorithm = algorithm
        self.masterKey = masterKey
        self.dataKeys = [dataKey]
        self.currentDataKeyID = dataKey.id
    }
}
