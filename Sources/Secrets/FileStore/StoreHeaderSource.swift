import Foundation

/// Where an encrypted store keeps its header (``StoreHeader``), as ``EncryptedItemCodec`` reads it again to pick up
/// what other processes changed.
///
/// The encrypted file store reads `store.json` (``StoreDirectory``); a store kept in database rows
/// (``SealedRowBackend``) reads its header row. Either way the bytes are the same format.
protocol StoreHeaderSource: Sendable {
    /// Names the header in messages: a path, or a table. Never a password or a key.
    var headerLocation: String { get }
    /// The header's current bytes, or `nil` when there is none.
    func readHeaderBytes() throws -> Data?
}

extension StoreDirectory: StoreHeaderSource {
    var headerLocation: String { url(StoreHeader.fileName).path }

    func readHeaderBytes() throws -> Data? {
        try read(StoreHeader.fileName, limit: StoreHeader.maximumFileSize)
    }
}
