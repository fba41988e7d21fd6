import Foundation

/// The JSON header (`store.json`) of an encrypted file store. See `docs/file-store-format.md`.
struct StoreHeader: Codable, Sendable, Equatable {
    static let formatName = "coffer-encrypted-file-store"
    static let currentVersion = 1
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
        var created: Date
    }

    var format: String
    var version: Int
    var storeID: String
    /// The cipher that wraps the master key and the data keys; fixed when the store is created.
    var keyWrapAlgorithm: EncryptionAlgorithm
    /// The cipher new items are sealed with; a key rotation can change it.
    var itemAlgorithm: EncryptionAlgorithm
    var masterKey: MasterKey
    var dataKeys: [DataKey]
    var currentDataKeyID: String

    var currentDataKey: DataKey? { dataKeys.first { $0.id == currentDataKeyID } }

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
        try check(Self.saltSizes.contains(header.masterKey.salt.count), "salt size")
        try check(header.masterKey.wrapped.count == Self.wrappedKeySize, "wrapped master key size")
        if header.masterKey.protection == .pbkdf2 {
            let iterations = header.masterKey.iterations ?? 0
            try check((1...KeyEncryptionKey.maximumIterations).contains(iterations), "iteration count \(iterations)")
        }
        try check((1...Self.maximumDataKeys).contains(header.dataKeys.count), "number of data keys")
        try check(
            header.dataKeys.allSatisfy { $0.wrapped.count == Self.wrappedKeySize && $0.id.count == 16 },
            "data key format")
        try check(header.currentDataKey != nil, "no current data key")
        self = header
    }

    init(storeID: String, algorithm: EncryptionAlgorithm, masterKey: MasterKey, dataKey: DataKey) {
        self.format = Self.formatName
        self.version = Self.currentVersion
        self.storeID = storeID
        self.keyWrapAlgorithm = algorithm
        self.itemAlgorithm = algorithm
        self.masterKey = masterKey
        self.dataKeys = [dataKey]
        self.currentDataKeyID = dataKey.id
    }
}
