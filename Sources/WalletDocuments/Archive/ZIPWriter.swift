import Foundation

/// Writes ZIP archives of stored entries in one pass into one buffer: local headers and data, the central directory
/// and the end record, with fixed timestamps, so the same entries always give the same bytes.
///
/// Every entry is stored: a document's images are compressed already, and deflating `pass.json` and `manifest.json`
/// would save a few hundred bytes of a typical 500 KB pass while costing zlib and time (Wallet accepts both).
/// Archives are plain ZIP (no ZIP64): what does not fit is refused with ``WalletDocumentError/tooLarge(what:limit:)``.
package enum ZIPWriter {
    /// The longest entry name a ZIP holds, in UTF-8 bytes.
    package static let maximumNameLength = 0xFFFF
    /// The most entries a ZIP without ZIP64 holds.
    package static let maximumEntries = 0xFFFF
    /// The largest entry, and the largest offset of a header, a ZIP without ZIP64 holds (0xFFFFFFFF marks ZIP64).
    package static let maximumSize = 0xFFFF_FFFE

    /// 2023-11-14 22:13:20 as an MS-DOS time and date: every entry's modification time.
    package static let dosTime: UInt16 = 0xB1AA
    package static let dosDate: UInt16 = 0x576E
    /// Made by: Unix (3), ZIP 2.0; so unzip(1) restores the mode in ``externalAttributes``.
    package static let versionMadeBy: UInt16 = 0x0314
    package static let versionNeeded: UInt16 = 20
    /// A regular file, mode 0644.
    package static let externalAttributes: UInt32 = 0o100644 << 16

    /// The archive of `entries`, in the order given.
    package static func archive(_ entries: [ZIPStoredEntry]) throws -> Data {
        let layout = try size(of: entries.map { (nameLength: $0.name.count, dataSize: $0.data.count) })
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(layout.total, 1), alignment: 16)
        var output = Output(base: buffer)
        var offsets: [UInt32] = []
        offsets.reserveCapacity(entries.count)
        for entry in entries {
            offsets.append(UInt32(output.position))
            output.u32(0x0403_4B50)
            output.u16(versionNeeded)
            output.header(entry)
            output.u16(0)  // extra field length
            output.bytes(entry.name)
            output.bytes(entry.data)
        }
        for (entry, offset) in zip(entries, offsets) {
            output.u32(0x0201_4B50)
            output.u16(versionMadeBy)
            output.u16(versionNeeded)
            output.header(entry)
            output.u16(0)  // extra field length
            output.u16(0)  // comment length
            output.u16(0)  // disk number
            output.u16(0)  // internal attributes
            output.u32(externalAttributes)
            output.u32(offset)
            output.bytes(entry.name)
        }
        output.u32(0x0605_4B50)
        output.u16(0)  // this disk
        output.u16(0)  // the disk where the central directory starts
        output.u16(UInt16(entries.count))
        output.u16(UInt16(entries.count))
        output.u32(UInt32(layout.directorySize))
        output.u32(UInt32(layout.directoryOffset))
        output.u16(0)  // comment length
        assert(output.position == layout.total)
        return Data(
            bytesNoCopy: buffer, count: layout.total, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }

    /// The layout of an archive of entries with these name lengths and data sizes; throws
    /// ``WalletDocumentError/tooLarge(what:limit:)`` when a ZIP without ZIP64 cannot hold them.
    package static func size(of entries: [(nameLength: Int, dataSize: Int)]) throws -> (
        total: Int, directoryOffset: Int, directorySize: Int
    ) {
        guard entries.count <= maximumEntries else {
            throw WalletDocumentError.tooLarge(
                what: "the number of archive entries (\(entries.count))", limit: maximumEntries)
        }
        var offset = 0
        var directorySize = 0
        for entry in entries {
            guard entry.nameLength <= maximumNameLength else {
                throw WalletDocumentError.tooLarge(
                    what: "the name of an archive entry (\(entry.nameLength) bytes)", limit: maximumNameLength)
            }
            guard offset <= maximumSize, entry.dataSize <= maximumSize else {
                throw WalletDocumentError.tooLarge(what: "the archive (a ZIP without ZIP64)", limit: maximumSize)
            }
            offset += 30 + entry.nameLength + entry.dataSize
            directorySize += 46 + entry.nameLength
        }
        guard offset <= maximumSize, directorySize <= maximumSize else {
            throw WalletDocumentError.tooLarge(what: "the archive (a ZIP without ZIP64)", limit: maximumSize)
        }
        return (offset + directorySize + 22, offset, directorySize)
    }

    /// Little-endian writes into a buffer whose size ``size(of:)`` computed.
    private struct Output {
        let base: UnsafeMutableRawPointer
        var position = 0

        mutating func u16(_ value: UInt16) {
            base.storeBytes(of: value.littleEndian, toByteOffset: position, as: UInt16.self)
            position += 2
        }

        mutating func u32(_ value: UInt32) {
            base.storeBytes(of: value.littleEndian, toByteOffset: position, as: UInt32.self)
            position += 4
        }

        mutating func bytes(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { copy($0) }
        }

        mutating func bytes(_ data: Data) {
            data.withUnsafeBytes { copy($0) }
        }

        private mutating func copy(_ source: UnsafeRawBufferPointer) {
            if let address = source.baseAddress, source.count > 0 {
                (base + position).copyMemory(from: address, byteCount: source.count)
            }
            position += source.count
        }

        /// The fields local headers and central directory records share, from the flags to the extra field
        /// length (exclusive): flags, method (stored), time, date, CRC-32, sizes, name length.
        mutating func header(_ entry: ZIPStoredEntry) {
            u16(entry.flags)
            u16(0)
            u16(ZIPWriter.dosTime)
            u16(ZIPWriter.dosDate)
            u32(entry.crc32)
            u32(UInt32(entry.data.count))
            u32(UInt32(entry.data.count))
            u16(UInt16(entry.name.count))
        }
    }
}
