import Crypto
import Foundation

/// Frames items of an ``EncryptedFileBackend`` (and of a ``SealedRowBackend``, which keeps the same bytes in rows): `"CFEI" ‖ u8 version (2) ‖ u8 algorithm ‖ 8-byte data key id ‖
/// u64 generation ‖ u32 n ‖ sealed identity (n bytes) ‖ sealed value`. Version 1 (no generation) is still read.
///
/// Everything before `n` is the *prefix*. The identity is sealed with the prefix and `"identity"` as associated
/// data; the value with the prefix and the identity's encoding, which binds each ciphertext to its service,
/// access group, account, algorithm, key id and generation. Files are named by HMAC-SHA256 of the identity under
/// a key derived from the master key, so names reveal nothing about accounts.
final class EncryptedItemCodec: ItemCodec {
    static let magic = Data("CFEI".utf8)
    static let version: UInt8 = 2
    static let readableVersions: ClosedRange<UInt8> = 1...2
    /// The prefix of a version 2 item, the longest one.
    static let prefixSize = 4 + 1 + 1 + 8 + 8

    /// Where the header is read again from.
    let headerSource: any StoreHeaderSource
    let keys: Locked<KeyRing>
    /// What follows the 64 hexadecimal digits of an item's name: `.item` for files, nothing for rows.
    let nameSuffix: String

    init(headerSource: any StoreHeaderSource, keys: KeyRing, nameSuffix: String) {
        self.headerSource = headerSource
        self.keys = Locked(keys)
        self.nameSuffix = nameSuffix
    }

    /// A codec for the item files of the store in `directory`.
    convenience init(directory: StoreDirectory, keys: KeyRing) {
        self.init(headerSource: directory, keys: keys, nameSuffix: ItemFileStore<EncryptedItemCodec>.itemSuffix)
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

    func refreshAfterMiss() throws -> Bool {
        try reloadHeader()
    }

    /// Reads the header (`store.json`, or its row) again and adopts it if another process changed it; returns
    /// whether it changed.
    @discardableResult
    func reloadHeader() throws -> Bool {
        let path = headerSource.headerLocation
        guard let bytes = try headerSource.readHeaderBytes() else {
            throw SecretsError.unavailable("the store header \(path) has disappeared")
        }
        if keys.withLock({ $0.headerBytes == bytes }) { return false }
        let header = try StoreHeader(decoding: bytes, path: path)
        try keys.withLock { try $0.adopt(header, bytes: bytes, storePath: path) }
        return true
    }

    func fileName(for identity: ItemIdentity) throws -> String {
        Self.fileName(for: identity, nameKey: keys.withLock { $0.nameKey }, suffix: nameSuffix)
    }

    /// The current name first, then, while a re-key is unfinished, the name under the previous master key.
    func fileNames(for identity: ItemIdentity) throws -> [String] {
        let (current, previous) = keys.withLock { ($0.nameKey, $0.previousNameKey) }
        return [current, previous].compactMap {
            $0.map { Self.fileName(for: identity, nameKey: $0, suffix: nameSuffix) }
        }
    }

    private static func fileName(for identity: ItemIdentity, nameKey: SymmetricKey, suffix: String) -> String {
        HMAC<SHA256>.authenticationCode(for: identity.encoded, using: nameKey).hexString + suffix
    }

    /// What new items are sealed with: the header's current data key, cipher and generation.
    struct SealingKey {
        var id: String
        var key: SymmetricKey
        var algorithm: EncryptionAlgorithm
        var generation: UInt64
    }

    /// The key new items are sealed with.
    func sealingKey() throws -> SealingKey {
        try keys.withLock { ring in
            guard let key = ring.dataKeys[ring.header.currentDataKeyID] else {
                throw SecretsError.corruptData("the store header (no current data key)")
            }
            return SealingKey(
                id: ring.header.currentDataKeyID, key: key, algorithm: ring.header.itemAlgorithm,
                generation: ring.header.currentGeneration)
        }
    }

    func encode(_ value: Data, for identity: ItemIdentity) throws -> Data {
        try seal(value, for: identity, with: try sealingKey())
    }

    func seal(_ value: Data, for identity: ItemIdentity, with sealing: SealingKey) throws -> Data {
        let key = sealing.key
        let algorithm = sealing.algorithm
        var prefix = ByteWriter(capacity: Self.prefixSize)
        prefix.append(Self.magic)
        prefix.append(Self.version)
        prefix.append(algorithm.wireIdentifier)
        prefix.append(Self.keyIDBytes(sealing.id))
        prefix.append(sealing.generation)
        let encodedIdentity = identity.encoded
        let sealedIdentity = try algorithm.seal(
            encodedIdentity, using: key, authenticating: prefix.data + Data("identity".utf8))
        var file = ByteWriter(
            capacity: prefix.data.count + 4 + sealedIdentity.count + value.count + EncryptionAlgorithm.sealedOverhead)
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

    /// Throws unless `fileName` is a name of `identity`'s file (a file copied under another item's name fails).
    private func checkName(_ fileName: String, of identity: ItemIdentity) throws {
        guard try fileNames(for: identity).contains(fileName) else {
            throw SecretsError.authenticationFailed(item: "item \(fileName) (it was moved from another name)")
        }
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
        let item = try open(file, fileName: fileName, reportingRollback: true)
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

    /// Opens both sealed parts of an item found at `fileName`: its identity, which must be the one that name
    /// belongs to, and its value, which is bound to that identity.
    ///
    /// - Throws: `rolledBack` when the item was sealed after the store's header (the header is an older copy);
    ///   with `reportingRollback`, also when its data key is unknown and its (not yet authenticated) generation is
    ///   later than the header's, which is what an older header put back looks like. A rotation leaves that off,
    ///   so that a junk file claiming a high generation cannot stop it.
    func open(_ file: Data, fileName: String, reportingRollback: Bool = false) throws -> OpenedItem {
        let parsed = try parse(file, fileName: fileName)
        let key: SymmetricKey
        do {
            key = try dataKey(parsed.keyID, fileName: fileName)
        } catch SecretsError.corruptData(let problem) {
            if reportingRollback { try checkGeneration(parsed.generation, fileName: fileName) }
            throw SecretsError.corruptData(problem)
        }
        let identity = try openIdentity(parsed, key: key, fileName: fileName)
        try checkName(fileName, of: identity)
        let value: Data
        do {
            value = try parsed.algorithm.open(
                parsed.sealedValue, using: key, authenticating: parsed.prefix + identity.encoded)
        } catch {
            throw SecretsError.authenticationFailed(item: "the item at \(SecretsError.quoted(identity.account))")
        }
        try checkGeneration(parsed.generation, fileName: fileName)
        return OpenedItem(identity: identity, value: value, keyID: parsed.keyID, algorithm: parsed.algorithm)
    }

    /// Throws `rolledBack` when an authentic item records a later generation than the store's header, once the
    /// header has been read again (another process may just have written a newer one).
    private func checkGeneration(_ generation: UInt64, fileName: String) throws {
        if generation <= keys.withLock({ $0.header.currentGeneration }) { return }
        try reloadHeader()
        let current = keys.withLock { $0.header.currentGeneration }
        guard generation <= current else {
            throw SecretsError.rolledBack(
                "the store header \(headerSource.headerLocation) (generation \(current), older than "
                    + "item \(fileName), sealed at generation \(generation))")
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
        var generation: UInt64
        var sealedIdentity: Data
        var sealedValue: Data
    }

    private func parse(_ file: Data, fileName: String) throws -> Parsed {
        do {
            var reader = ByteReader(file)
            let version = try reader.readItemHeader(
                magic: Self.magic, versions: Self.readableVersions, fileName: fileName)
            guard let algorithm = EncryptionAlgorithm(wireIdentifier: try reader.readByte()) else {
                throw SecretsError.corruptData("item \(fileName) (unknown algorithm)")
            }
            let keyID = try reader.readBytes(8).hexString
            let generation: UInt64 = version >= 2 ? try reader.readInteger() : 0
            let prefixSize = file.count - reader.remaining.count
            let identityLength = Int(try reader.readUInt32())
            guard identityLength >= EncryptionAlgorithm.sealedOverhead,
                identityLength <= ItemIdentity.maximumEncodedSize + EncryptionAlgorithm.sealedOverhead
            else { throw ByteReader.Malformed() }
            let sealedIdentity = try reader.readBytes(identityLength)
            let sealedValue = Data(reader.remaining)
            return Parsed(
                prefix: Data(file.prefix(prefixSize)), algorithm: algorithm, keyID: keyID, generation: generation,
                sealedIdentity: Data(sealedIdentity), sealedValue: sealedValue)
        } catch is ByteReader.Malformed {
            throw SecretsError.corruptData("item \(fileName) (truncated or malformed)")
        }
    }

    /// The 8 bytes of a 16-digit hexadecimal key id (the key ring makes every id with ``SecureRandom/hex(byteCount:)``).
    static func keyIDBytes(_ id: String) -> Data {
        Data(Hex.bytes(id) ?? [])
    }
}
