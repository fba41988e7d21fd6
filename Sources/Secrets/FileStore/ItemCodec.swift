import Foundation

/// How a file store names and frames its items: the one part that differs between the plain and the encrypted
/// file store. Everything else (directory, lock, durable writes, listing) is ``ItemFileStore``.
protocol ItemCodec: Sendable {
    /// The file name of the item with `identity`; the same identity always gives the same name.
    func fileName(for identity: ItemIdentity) throws -> String
    /// Every name the item's file may have, the one new writes use first (a store in transition between two
    /// naming keys has two).
    func fileNames(for identity: ItemIdentity) throws -> [String]
    /// Called when a read finds no file: picks up changes other processes made, and returns whether there were
    /// any (the read then tries again).
    func refreshAfterMiss() throws -> Bool
    /// The file bytes for `value`.
    func encode(_ value: Data, for identity: ItemIdentity) throws -> Data
    /// The identity recorded in a file (read from its first ``identityPrefixLength`` bytes at least).
    func decodeIdentity(_ file: Data, fileName: String) throws -> ItemIdentity
    /// The value in a file, checked against the identity it was looked up by.
    func decodeValue(_ file: Data, for identity: ItemIdentity, fileName: String) throws -> Data
    /// How many leading bytes of a file ``decodeIdentity(_:fileName:)`` needs at most.
    var identityPrefixLength: Int { get }
    /// How many bytes a file holding the largest value can have.
    func maximumFileSize(forValueSize size: Int) -> Int
    /// Called under the store's lock before a write, to pick up changes other processes made.
    func prepareForWrite() throws
}

extension ItemCodec {
    func fileNames(for identity: ItemIdentity) throws -> [String] { [try fileName(for: identity)] }
    func refreshAfterMiss() throws -> Bool { false }
}
