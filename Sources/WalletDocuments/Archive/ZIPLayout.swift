import Foundation

/// Checks that every place ZIPFoundation will read in an archive lies inside it, before ZIPFoundation reads it.
///
/// ZIPFoundation 0.9.20 seeks wherever an archive's offsets point: its in-memory file traps on a read past the end
/// (`Archive.MemoryFile.readData`), and a ZIP64 offset above `Int64.max` traps converting to `off_t`. An untrusted
/// `.pkpass` must not crash the process, so its end records, central directory, local headers, entry data and data
/// descriptors are located here the way ZIPFoundation locates them, and an archive that points outside itself is
/// refused with ``WalletDocumentError/malformedArchive(_:)``.
struct ZIPLayout {
    private let bytes: [UInt8]

    /// Checks `data`; throws ``WalletDocumentError/malformedArchive(_:)`` when any offset points outside it, and when
    /// it declares more than `maximumEntries` entries.
    static func check(_ data: Data, maximumEntries: Int) throws {
        try ZIPLayout(bytes: [UInt8](data)).check(maximumEntries: maximumEntries)
    }

    private func check(maximumEntries: Int) throws {
        let end = try endOfCentralDirectory()
        var entries = UInt64(u16(end + 10))
        var directorySize = UInt64(u32(end + 12))
        var directoryOffset = UInt64(u32(end + 16))
        // ZIPFoundation takes the ZIP64 end record at a fixed place before the locator, when both are there.
        if end > 20, end - 20 > 56, u32(end - 20) == 0x0706_4B50, u32(end - 76) == 0x0606_4B50, u16(end - 76 + 14) >= 45
        {
            let record = end - 76
            entries = u64(record + 32)
            directorySize = u64(record + 40)
            directoryOffset = u64(record + 48)
        }
        guard entries <= UInt64(maximumEntries) else { throw malformed("more than \(maximumEntries) entries") }
        guard fits(directoryOffset, directorySize) else { throw malformed("the central directory lies outside it") }
        var position = Int(directoryOffset)
        for _ in 0..<entries {
            position = try centralEntry(at: position)
        }
    }

    /// The offset of the end of central directory record: the last signature found scanning back from the end,
    /// within the 22 bytes of the record and the 65,535 of its longest comment (where ZIP puts it).
    private func endOfCentralDirectory() throws -> Int {
        var index = 22
        while index <= min(bytes.count, 22 + 65_535) {
            let offset = bytes.count - index
            if u32(offset) == 0x0605_4B50 { return offset }
            index += 1
        }
        throw malformed("not a ZIP archive")
    }

    /// Checks one central directory entry, its local header, data and data descriptor; returns the next entry's
    /// offset.
    private func centralEntry(at position: Int) throws -> Int {
        guard fits(UInt64(position), 46), u32(position) == 0x0201_4B50 else {
            throw malformed("a central directory entry lies outside it")
        }
        let flags = u16(position + 8)
        let method = u16(position + 10)
        var compressedSize = UInt64(u32(position + 20))
        var uncompressedSize = UInt64(u32(position + 24))
        let nameLength = Int(u16(position + 28))
        let extraLength = Int(u16(position + 30))
        let commentLength = Int(u16(position + 32))
        var localOffset = UInt64(u32(position + 42))
        let next = position + 46 + nameLength + extraLength + commentLength
        guard next <= bytes.count else { throw malformed("a central directory entry lies outside it") }
        let extra = Array(bytes[(position + 46 + nameLength)..<(position + 46 + nameLength + extraLength)])
        let versionNeeded = u16(position + 6)
        var isZIP64 = UInt8(truncatingIfNeeded: versionNeeded) >= 45
        if let zip64 = zip64Fields(
            in: extra, uncompressed: uncompressedSize == 0xFFFF_FFFF, compressed: compressedSize == 0xFFFF_FFFF,
            offset: localOffset == 0xFFFF_FFFF, disk: u16(position + 34) == 0xFFFF)
        {
            // ZIPFoundation takes a ZIP64 value only when it is not zero.
            isZIP64 = true
            uncompressedSize = zip64.uncompressed.flatMap { $0 > 0 ? $0 : nil } ?? uncompressedSize
            compressedSize = zip64.compressed.flatMap { $0 > 0 ? $0 : nil } ?? compressedSize
            localOffset = zip64.offset.flatMap { $0 > 0 ? $0 : nil } ?? localOffset
        }
        guard fits(localOffset, 30), u32(Int(localOffset)) == 0x0403_4B50 else {
            throw malformed("an entry's local header lies outside it")
        }
        let local = Int(localOffset)
        let dataOffset = UInt64(local + 30 + Int(u16(local + 26)) + Int(u16(local + 28)))
        let dataSize = method == 0 ? uncompressedSize : compressedSize
        guard fits(dataOffset, dataSize) else { throw malformed("an entry's data lies outside it") }
        if flags & (1 << 3) != 0 {
            guard fits(dataOffset + dataSize, isZIP64 ? 24 : 16) else {
                throw malformed("an entry's data descriptor lies outside it")
            }
        }
        return next
    }

    /// The ZIP64 extended information ZIPFoundation reads: the first extra field with header 1 whose size is
    /// exactly that of the fields the 32-bit values mark as ZIP64, in the order uncompressed, compressed, offset,
    /// disk.
    private func zip64Fields(
        in extra: [UInt8], uncompressed: Bool, compressed: Bool, offset: Bool, disk: Bool
    ) -> (uncompressed: UInt64?, compressed: UInt64?, offset: UInt64?)? {
        var position = 0
        while position < extra.count - 4 {
            let header = UInt16(extra[position]) | UInt16(extra[position + 1]) << 8
            let size = Int(UInt16(extra[position + 2]) | UInt16(extra[position + 3]) << 8)
            guard position + 4 + size <= extra.count else { return nil }
            if header == 1 {
                let expected = (uncompressed ? 8 : 0) + (compressed ? 8 : 0) + (offset ? 8 : 0) + (disk ? 4 : 0)
                guard size == expected else { return nil }
                var read = position + 4
                func next(_ present: Bool) -> UInt64? {
                    guard present else { return nil }
                    defer { read += 8 }
                    return (0..<8).reduce(UInt64(0)) { $0 | UInt64(extra[read + $1]) << (8 * UInt64($1)) }
                }
                let values = (next(uncompressed), next(compressed), next(offset))
                return values
            }
            position += 4 + size
        }
        return nil
    }

    /// Whether `length` bytes at `offset` lie inside the archive (no overflow).
    private func fits(_ offset: UInt64, _ length: UInt64) -> Bool {
        let (end, overflow) = offset.addingReportingOverflow(length)
        return !overflow && end <= UInt64(bytes.count)
    }

    private func u16(_ offset: Int) -> UInt16 {
        guard offset >= 0, offset + 2 <= bytes.count else { return 0 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private func u32(_ offset: Int) -> UInt32 {
        UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16
    }

    private func u64(_ offset: Int) -> UInt64 {
        UInt64(u32(offset)) | UInt64(u32(offset + 4)) << 32
    }

    private func malformed(_ reason: String) -> WalletDocumentError {
        .malformedArchive(reason)
    }
}
