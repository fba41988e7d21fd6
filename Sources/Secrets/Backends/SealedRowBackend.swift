import Crypto
import Foundation
import Logging

/// An encrypted store kept in database rows: the encrypted file store's header and item bytes, sealed by the same
/// code (``KeyRing``, ``StoreHeader``, ``EncryptedItemCodec``), in a ``SealedRowStorage`` instead of files.
///
/// Several processes on several machines may open the same rows with the same key: the first creates the header
/// (``SealedRowStorage/createHeader(_:)`` keeps exactly one), the others unlock it. Each item is one row written
/// in one statement, so no lock is needed. Key rotation and re-keying are not offered for rows yet.
package final class SealedRowBackend: SecretsBackend {
    private let storage: any SealedRowStorage
    private let codec: EncryptedItemCodec
    private let maximumValueSize: Int
    private let logger: Logger

    /// Opens the store in `storage` with `key`, creating its header first when there is none and options allow.
    ///
    /// - Throws: ``SecretsError/wrongPassphrase(store:)`` or ``SecretsError/wrongKey(store:)`` when `key` does not
    ///   unlock the store, ``SecretsError/corruptData(_:)`` for a damaged header, ``SecretsError/unavailable(_:)``
    ///   when the storage cannot be reached or there is no store and none may be created.
    package init(
        storage: any SealedRowStorage, key: KeySource, options: EncryptedFileBackend.Options = .init(),
        logger: Logger = Logger(label: "coffer.secrets")
    ) throws {
        let location = storage.location
        var bytes = try storage.readHeader()
        if bytes == nil {
            guard options.createIfMissing else { throw SecretsError.unavailable("there is no store in \(location)") }
            let (header, _) = try KeyRing.makeStore(
                key: key, algorithm: options.algorithm,
                iterations: try options.iterationsForNewWrap(of: key, current: nil))
            // Another process may have created the store meanwhile: its header wins, and is unlocked below.
            bytes = try storage.createHeader(try header.encoded())
        }
        guard let bytes, bytes.count <= StoreHeader.maximumFileSize else {
            throw SecretsError.corruptData("the store header in \(location) (larger than a header can be)")
        }
        let header = try StoreHeader(decoding: bytes, path: location)
        guard header.version >= 2 else {
            throw SecretsError.corruptData("the store header in \(location) (format version 1 is never kept in rows)")
        }
        let (masterKey, _) = try KeyRing.unlock(header: header, with: key, storePath: location)
        let ring = try KeyRing(header: header, headerBytes: bytes, masterKey: masterKey, storePath: location)
        self.storage = storage
        self.codec = EncryptedItemCodec(headerSource: HeaderRow(storage: storage), keys: ring, nameSuffix: "")
        self.maximumValueSize = options.maximumValueSize
        self.logger = logger
    }

    /// Encrypts `data` and stores it in the item's row.
    package func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws {
        try query.validate()
        guard data.count <= maximumValueSize else {
            throw SecretsError.tooLarge(byteCount: data.count, limit: maximumValueSize)
        }
        let identity = ItemIdentity(query)
        let sealed = try codec.encode(data, for: identity)
        try storage.writeItem(sealed, named: try codec.fileName(for: identity))
    }

    /// Reads and decrypts the item's row.
    ///
    /// - Throws: ``SecretsError/authenticationFailed(item:)`` when the row was modified or copied from another
    ///   item's, ``SecretsError/corruptData(_:)`` when it is truncated or not an item.
    package func read<Value>(_ query: SecretQuery<Value>) throws -> Data? {
        try query.validate()
        let identity = ItemIdentity(query)
        let name = try codec.fileName(for: identity)
        guard let item = try storage.readItem(named: name) else { return nil }
        guard item.count <= codec.maximumFileSize(forValueSize: maximumValueSize) else {
            throw SecretsError.corruptData("item \(name) in \(storage.location) (\(item.count) bytes, too many)")
        }
        return try codec.decodeValue(item, for: identity, fileName: name)
    }

    /// Removes the item's row.
    @discardableResult
    package func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool {
        try query.validate()
        return try storage.deleteItem(named: try codec.fileName(for: ItemIdentity(query)))
    }

    /// The sorted accounts of `service` in `accessGroup`; rows that fail authentication are skipped and logged.
    package func listAccounts(service: String, accessGroup: String?) throws -> [String] {
        var accounts: Set<String> = []
        for (name, prefix) in try storage.itemPrefixes(length: codec.identityPrefixLength) {
            do {
                let identity = try codec.decodeIdentity(prefix, fileName: name)
                guard try codec.fileName(for: identity) == name else {
                    throw SecretsError.corruptData("item \(name) (its name does not match its contents)")
                }
                if identity.service == service, identity.accessGroup == accessGroup {
                    accounts.insert(identity.account)
                }
            } catch let error as SecretsError where error.isDamage {
                logger.warning(
                    "skipping an unreadable item while listing",
                    metadata: ["item": "\(name)", "store": "\(storage.location)"])
            }
        }
        return accounts.sorted()
    }

    /// The header row, as the codec reads it again.
    private struct HeaderRow: StoreHeaderSource {
        let storage: any SealedRowStorage
        var headerLocation: String { storage.location }
        func readHeaderBytes() throws -> Data? { try storage.readHeader() }
    }
}
