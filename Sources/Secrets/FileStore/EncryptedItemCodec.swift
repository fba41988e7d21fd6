import Crypto
import Foundation

/// Frames items of an ``EncryptedFileBackend``:
/// `"CFEI" ‖ u8 version ‖ u8 algorithm ‖ 8-byte data key id ‖ u32 n ‖ sealed identity (n bytes) ‖ sealed value`.
///
/// The first 14 bytes are the *prefix*. The identity is sealed with the prefix and `"identity"` as associated
/// data; the value with the prefix and the identity's encoding, which binds each ciphertext to its service,
/// access group, account, algorithm and key id. Files are named by HMAC-SHA256 of the identity under a key
/// derived from the master key, so names reveal nothing about accounts.
final class EncryptedItemCodec: ItemCodec {
    static let magic = Data("CFEI".utf8)
    static let version: UInt8 = 1
    static let prefixSize = 4 + 1 + 1 + 8

    let directory: StoreDirectory
    let keys: Locked<KeyRing>

    init(directory: StoreDirectory, keys: KeyRing) {
        self.directory = directory
        self.keys = Locked(keys)
    }

    var identityPrefixLength: Int {
        Self.prefixSize + 4 + ItemIdentity.maximumEncodedSize + EncryptionAlgorithm.sealedOverhead
    }

    func maximumFileSize(forValueSize size: Int) -> Int {
        identityPrefixLength + size + EncryptionAlgorithm.sealedOverhead
    }

    func prepareForWrite() throws {
        try reloadHeader()
    }

    /// Reads `store.json` again and adopts it if another process changed it.
    func reloadHeader() throws {
        let path = directory.url(StoreHeader.fileName).path
        guard let bytes = try directory.read(StoreHeader.fileName, limit: StoreHeader.maximumFileSize) else {
            throw SecretsError.unavailable("the store header \(path) has disappeared")
        }
        if keys.withLock({ $0.headerBytes == bytes }) { return }
        let header = try StoreHeader(decoding: bytes, path: path)
        try keys.withLock { try $0.adopt(header, bytes: bytes, storePath: path) }
    }

    func fileName(for identity: ItemIdentity) throws -> String {
        let nameKey = keys.withLock { $0.nameKey }
        let code = HMAC<SHA256>.authenticationCode(for: identity.encoded, using: nameKey)
        return code.hexString + ItemFileStore<EncryptedItemCodec>.itemSuffix
    }

    func encode(_ value: Data, for identity: ItemIdentity) throws -> Data {
        let (keyID, key, algorithm) = try keys.withLock { ring -> (String, SymmetricKey, EncryptionAlgorithm) in
            guard let key = ring.dataKeys[ring.header.currentDataKeyID] else {
                throw SecretsError.corruptData("the store header (no current data key)")
            }
            return (ring.header.currentDataKeyID, key, ring.header.itemAlgorithm)
        }
        return try seal(value, for: identity, keyID: keyID, key: key, algorithm: algorithm)
    }

    func seal(
        _ value: Data, for identity: ItemIdentity, keyID: String, key: SymmetricKey, algorithm: EncryptionAlgorithm
    ) throws -> Data {
        var prefix = ByteWriter(capacity: Self.prefixSize)
        prefix.append(Self.magic)
        prefix.append(Self.version)
        prefix.append(algorithm.wireIdentifier)
        prefix.append(Self.keyIDBytes(keyID))
        let encodedIdentity = identity.encoded
        let sealedIdentity = try algorithm.seal(
            encodedIdentity, using: key, authenticating: prefix.data + Data("identity".utf8))
        var file = ByteWriter(
            capacity: Self.prefixSize + 4 + sealedIdentity.count + value.count + EncryptionAlgorithm.sealedOverhead)
        file.append(prefix.data)
        file.append(UInt32(sealedIdentity.count))
        file.append(sealedIdentity)
        try file.appendSealed(value, with: algorithm, key: key, authenticating: prefix.data + encodedIdentity)
        return file.data
    }

    func decodeIdentity(_ file: Data, fileName: String) throws -> ItemIdentity {
        let parsed = try parse(file, fileName: fileName)
        return try openIdentity(parsed, key: try dataKey(parsed.keyID, fileName: fileName), fileName: fileName)
    }

    private func openIdentity(_ parsed: Parsed, key: SymmetricKey, fileName: String) throws -> ItemIdentity {
        let bytes: Data
        do {
            bytes = try parsed.algorithm.open(
                parsed.sealedIdentity, using: key, authenticating: parsed.prefix + Data("identity".utf8))
        } catch {
            throw SecretsError.authenticationFailed(item: "item \(fileName)")
        }
        do {
            return try ItemIdentity(decoding: bytes)
        } catch {
            throw SecretsError.corruptData("item \(fileName) (malformed identity)")
        }
    }

    func decodeValue(_ file: Data, for identity: ItemIdentity, fileName: String) throws -> Data {
        let item = try open(file, fileName: fileName)
        guard item.identity == identity else {
            throw SecretsError.authenticationFailed(item: "the item at \(SecretsError.quoted(identity.account))")
        }
        return item.value
    }

    /// An item with both sealed parts opened.
    struct OpenedItem {
        var identity: ItemIdentity
        var value: Data
        var keyID: String
        var algorithm: EncryptionAlgorithm
    }

    /// Opens both sealed parts of an item: its identity, and its value, which is bound to that identity.
    func open(_ file: Data, fileName: String) throws -> OpenedItem {
        let parsed = try parse(file, fileName: fileName)
        let key = try dataKey(parsed.keyID, fileName: fileName)
        let identity = try openIdentity(parsed, key: key, fileName: fileName)
        do {
            let value = try parsed.algorithm.open(
                parsed.sealedValue, using: key, authenticating: parsed.prefix + identity.encoded)
            return OpenedItem(identity: identity, value: value, keyID: parsed.keyID, algorithm: parsed.algorithm)
        } catch {
            throw SecretsError.authenticationFailed(item: "the item at \(SecretsError.quoted(identity.account))")
        }
    }

    /// The data key with `id`, reloading the header once in case another process has just rotated keys.
    private func dataKey(_ id: String, fileName: String) throws -> SymmetricKey {
        if let key = keys.withLock({ $0.dataKeys[id] }) { return key }
        try reloadHeader()
        guard let key = keys.withLock({ $0.dataKeys[id] }) else {
            throw SecretsError.corruptData("item \(fileName) (sealed with data key \(id), which the store lacks)")
        }
        return key
    }

    private struct Parsed {
        var prefix: Data
        var algorithm: EncryptionAlgorithm
        var keyID: String
        var sealedIdentity: Data
        var sealedValue: Data
    }

    private func parse(_ file: Data, fileName: String) throws -> Parsed {
        do {
            var reader = ByteReader(file)
            try reader.readItemHeader(magic: Self.magic, version: Self.version, fileName: fileName)
            guard let algorithm = EncryptionAlgorithm(wireIdentifier: try reader.readByte()) else {
                throw SecretsError.corruptData("item \(fileName) (unknown algorithm)")
            }
            let keyID = try reader.readBytes(8).hexString
            let identityLength = Int(try reader.readUInt32())
            guard identityLength >= EncryptionAlgorithm.sealedOverhead,
                identityLength <= ItemIdentity.maximumEncodedSize + EncryptionAlgorithm.sealedOverhead
            else { throw ByteReader.Malformed() }
            let sealedIdentity = try reader.readBytes(identityLength)
            let sealedValue = Data(reader.remaining)
            return Parsed(
                prefix: Data(file.prefix(Self.prefixSize)), algorithm: algorithm, keyID: keyID,
                sealedIdentity: Data(sealedIdentity), sealedValue: sealedValue)
        } catch is ByteReader.Malformed {
            throw SecretsError.corruptData("item \(fileName) (truncated or malformed)")
        }
    }

    /// The 8 bytes of a 16-digit hexadecimal key id.
    static func keyIDBytes(_ id: String) -> Data {
        var bytes = Data()
        var index = id.startIndex
        while index < id.endIndex, let next = id.index(index, offsetBy: 2, limitedBy: id.endIndex) {
            bytes.append(UInt8(id[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }
}
