import Foundation

/// Named byte rows and one header row: what a ``SealedRowBackend`` needs from a database to keep an encrypted
/// store there.
///
/// The storage sees only sealed bytes: item names are keyed hashes (64 lowercase hexadecimal digits) and the rows
/// are the encrypted file store's item files, byte for byte (`docs/file-store-format.md`). It needs no transactions:
/// every call is one statement, atomic on its own. Calls may come from many threads at once and block until the
/// database answers; they must give up (with ``SecretsError/unavailable(_:)``) rather than wait without end.
package protocol SealedRowStorage: Sendable {
    /// Names the store in messages (a database and table), never a password.
    var location: String { get }
    /// The header's bytes, or `nil` when the store has none yet.
    func readHeader() throws -> Data?
    /// Stores `header` unless a header is there already, and returns the header stored afterwards: `header`, or
    /// the one another process created first.
    func createHeader(_ header: Data) throws -> Data
    /// The bytes of the item called `name`, or `nil`.
    func readItem(named name: String) throws -> Data?
    /// Stores `item` as the item called `name`, replacing any.
    func writeItem(_ item: Data, named name: String) throws
    /// Removes the item called `name`; returns whether there was one.
    func deleteItem(named name: String) throws -> Bool
    /// Every item's name with its first `length` bytes (enough to open its identity), for listing.
    func itemPrefixes(length: Int) throws -> [(name: String, prefix: Data)]
}
