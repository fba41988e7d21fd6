import Foundation

/// A file ready to be stored (not compressed) in a ZIP archive: its name, its bytes and their CRC-32, checked against
/// what a ZIP without ZIP64 can hold.
///
/// Making one costs a pass over the bytes (the CRC); writing it costs a copy. A pass template
/// (`PreparedPassTemplate`) makes its entries once and reuses them for every pass.
package struct ZIPStoredEntry: Sendable {
    /// The path inside the archive.
    package let path: String
    /// The path as UTF-8, as the headers carry it.
    package let name: [UInt8]
    /// The file's bytes.
    package let data: Data
    /// The CRC-32 of ``data``.
    package let crc32: UInt32
    /// General purpose flags: bit 11 (the name is UTF-8) when the name has non-ASCII characters.
    package let flags: UInt16

    /// Prepares `data` for `path`; throws ``WalletDocumentError/tooLarge(what:limit:)`` when the name is longer than
    /// 65,535 bytes or the file larger than a ZIP without ZIP64 holds.
    package init(path: String, data: Data) throws {
        let name = Array(path.utf8)
        guard name.count <= ZIPWriter.maximumNameLength else {
            throw WalletDocumentError.tooLarge(
                what: "the name of an archive entry (\(name.count) bytes)", limit: ZIPWriter.maximumNameLength)
        }
        guard data.count <= ZIPWriter.maximumSize else {
            throw WalletDocumentError.tooLarge(what: "archive entry \(path)", limit: ZIPWriter.maximumSize)
        }
        self.path = path
        self.name = name
        self.data = data
        self.crc32 = ZIPChecksum.checksum(data)
        self.flags = name.contains { $0 >= 0x80 } ? 1 << 11 : 0
    }
}
