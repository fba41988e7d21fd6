import Crypto
import Foundation
import Logging

/// A backend that keeps items unencrypted in a directory: for non-secret data that needs the same crash-safe,
/// multi-process storage as secrets.
///
/// It shares its directory layout, locking and atomic writes with ``EncryptedFileBackend``; only the framing
/// differs. Files are named by the SHA-256 of the item's identity and hold a small header, the identity and the
/// value in the clear. The on-disk format is described in `docs/file-store-format.md`.
public final class FileBackend: SecretsBackend {
    let store: ItemFileStore<PlainItemCodec>

    /// The store's directory.
    public var directory: URL { store.directory.root }

    /// Opens (creating if needed) a plain file store in `directory`, accepting values up to `maximumValueSize`.
    public init(
        directory: URL, maximumValueSize: Int = 16 * 1024 * 1024, logger: Logger = Logger(label: "coffer.secrets")
    ) throws {
        let storeDirectory = StoreDirectory(root: directory)
        let existed = storeDirectory.exists
        try storeDirectory.create(subdirectories: [ItemFileStore<PlainItemCodec>.itemsDirectory])
        store = ItemFileStore(
            directory: storeDirectory, codec: PlainItemCodec(), maximumValueSize: maximumValueSize, logger: logger)
        if existed { store.warnAboutAccess() }
        try storeDirectory.withExclusiveLock {
            storeDirectory.removeTemporaryFiles(in: ItemFileStore<PlainItemCodec>.itemsDirectory)
        }
    }

    /// Stores `data` durably.
    public func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws {
        try store.save(data, for: query)
    }

    /// Reads the item's bytes.
    public func read<Value>(_ query: SecretQuery<Value>) throws -> Data? {
        try store.read(query)
    }

    /// Removes the item.
    @discardableResult
    public func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool {
        try store.delete(query)
    }

    /// The sorted accounts of `service` in `accessGroup`.
    public func listAccounts(service: String, accessGroup: String?) throws -> [String] {
        try store.listAccounts(service: service, accessGroup: accessGroup)
    }
}

/// `"CFPI" ‖ u8 version ‖ u32 identity length ‖ identity ‖ value`, named by SHA-256 of the identity.
struct PlainItemCodec: ItemCodec {
    static let magic = Data("CFPI".utf8)
    static let version: UInt8 = 1
    static let headerSize = 4 + 1 + 4

    var identityPrefixLength: Int { Self.headerSize + ItemIdentity.maximumEncodedSize }

    func maximumFileSize(forValueSize size: Int) -> Int { identityPrefixLength + size }

    func prepareForWrite() throws {}

    func fileName(for identity: ItemIdentity) throws -> String {
        SHA256.hash(data: identity.encoded).hexString + ItemFileStore<Self>.itemSuffix
    }

    func encode(_ value: Data, for identity: ItemIdentity) throws -> Data {
        let encodedIdentity = identity.encoded
        var writer = ByteWriter(capacity: Self.headerSize + encodedIdentity.count + value.count)
        writer.append(Self.magic)
        writer.append(Self.version)
        writer.append(UInt32(encodedIdentity.count))
        writer.append(encodedIdentity)
        writer.append(value)
        return writer.data
    }

    func decodeIdentity(_ file: Data, fileName: String) throws -> ItemIdentity {
        try decode(file, fileName: fileName).identity
    }

    func decodeValue(_ file: Data, for identity: ItemIdentity, fileName: String) throws -> Data {
        let decoded = try decode(file, fileName: fileName)
        guard decoded.identity == identity else {
            throw SecretsError.corruptData("item \(fileName) (it records another item's identity)")
        }
        return decoded.value
    }

    private func decode(_ file: Data, fileName: String) throws -> (identity: ItemIdentity, value: Data) {
        do {
            var reader = ByteReader(file)
            try reader.readItemHeader(magic: Self.magic, versions: Self.version...Self.version, fileName: fileName)
            let length = Int(try reader.readUInt32())
            guard length <= ItemIdentity.maximumEncodedSize else { throw ByteReader.Malformed() }
            let identity = try ItemIdentity(decoding: try reader.readBytes(length))
            return (identity, Data(reader.remaining))
        } catch is ByteReader.Malformed {
            throw SecretsError.corruptData("item \(fileName) (truncated or malformed)")
        }
    }
}
