import Crypto
import Foundation

/// The unwrapped keys of an encrypted store, and the header they came from.
///
/// The master key is unwrapped once per unlock and never written anywhere; data keys and the file-name key are
/// derived from it. The passphrase or key file itself is not kept.
struct KeyRing: Sendable {
    var headerBytes: Data
    var header: StoreHeader
    let masterKey: SymmetricKey
    let nameKey: SymmetricKey
    var dataKeys: [String: SymmetricKey]

    static func masterKeyContext(storeID: String) -> Data { Data("coffer.master-key.v1|\(storeID)".utf8) }
    static func dataKeyContext(storeID: String, keyID: String) -> Data {
        Data("coffer.data-key.v1|\(storeID)|\(keyID)".utf8)
    }

    /// Builds the ring from a header and an already unwrapped master key.
    init(header: StoreHeader, headerBytes: Data, masterKey: SymmetricKey, storePath: String) throws {
        self.header = header
        self.headerBytes = headerBytes
        self.masterKey = masterKey
        self.nameKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: masterKey, salt: Data(header.storeID.utf8), info: Data("coffer.item-names.v1".utf8),
            outputByteCount: 32)
        self.dataKeys = [:]
        try unwrapDataKeys(storePath: storePath)
    }

    /// Unwraps the master key from `header` with the key-encryption key derived from `source`.
    static func unlock(header: StoreHeader, with source: KeySource, storePath: String) throws -> SymmetricKey {
        guard source.protection == header.masterKey.protection else {
            throw SecretsError.unsupported(
                "the store at \(storePath) is protected by \(header.masterKey.protection.noun), "
                    + "not \(source.protection.noun)")
        }
        let kek = try KeyEncryptionKey.derive(
            from: source, salt: header.masterKey.salt, iterations: header.masterKey.iterations ?? 0)
        do {
            let bytes = try header.keyWrapAlgorithm.open(
                header.masterKey.wrapped, using: kek, authenticating: masterKeyContext(storeID: header.storeID))
            return SymmetricKey(data: bytes)
        } catch {
            if case .passphrase = source { throw SecretsError.wrongPassphrase(store: storePath) }
            throw SecretsError.wrongKey(store: storePath)
        }
    }

    /// Wraps `masterKey` for `source`, with a fresh salt.
    static func wrap(
        masterKey: SymmetricKey, for source: KeySource, storeID: String, algorithm: EncryptionAlgorithm,
        iterations: Int
    ) throws -> StoreHeader.MasterKey {
        let salt = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
        let kek = try KeyEncryptionKey.derive(from: source, salt: salt, iterations: iterations)
        let wrapped = try masterKey.withUnsafeBytes {
            try algorithm.seal(Data($0), using: kek, authenticating: masterKeyContext(storeID: storeID))
        }
        return StoreHeader.MasterKey(
            protection: source.protection, iterations: source.protection == .pbkdf2 ? iterations : nil, salt: salt,
            wrapped: wrapped)
    }

    /// A new random data key, wrapped under `masterKey`.
    static func makeDataKey(masterKey: SymmetricKey, storeID: String, algorithm: EncryptionAlgorithm) throws
        -> StoreHeader.DataKey
    {
        let id = SecureRandom.hex(byteCount: 8)
        let key = SymmetricKey(size: .bits256)
        let wrapped = try key.withUnsafeBytes {
            try algorithm.seal(
                Data($0), using: masterKey, authenticating: dataKeyContext(storeID: storeID, keyID: id))
        }
        return StoreHeader.DataKey(id: id, wrapped: wrapped, created: Date())
    }

    /// Replaces the header, unwrapping any data key not yet known.
    mutating func adopt(_ newHeader: StoreHeader, bytes: Data, storePath: String) throws {
        guard newHeader.storeID == header.storeID else {
            throw SecretsError.corruptData("the store header \(storePath) (it now belongs to another store)")
        }
        header = newHeader
        headerBytes = bytes
        try unwrapDataKeys(storePath: storePath)
    }

    private mutating func unwrapDataKeys(storePath: String) throws {
        var keys: [String: SymmetricKey] = [:]
        for dataKey in header.dataKeys {
            if let known = dataKeys[dataKey.id] {
                keys[dataKey.id] = known
                continue
            }
            do {
                let bytes = try header.keyWrapAlgorithm.open(
                    dataKey.wrapped, using: masterKey,
                    authenticating: Self.dataKeyContext(storeID: header.storeID, keyID: dataKey.id))
                keys[dataKey.id] = SymmetricKey(data: bytes)
            } catch {
                throw SecretsError.corruptData("the store header \(storePath) (data key \(dataKey.id) fails to unwrap)")
            }
        }
        dataKeys = keys
    }
}
