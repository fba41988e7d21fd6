import CofferTestSupport
import Foundation
@testable import WalletDocuments
@testable import WalletPasses

/// Builds ZIP archives byte by byte, with whatever sizes and CRCs a test wants them to declare: what an attacker
/// hands to a reader.
enum CraftedZip {
    /// One entry as the archive describes it.
    struct Entry {
        var name: String
        /// 0 stored, 8 deflated.
        var method: UInt16
        /// The bytes stored in the archive (deflated when `method` is 8).
        var payload: Data
        var crc: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        /// Writes the sizes in a ZIP64 extra field (0xFFFFFFFF in the 32-bit fields).
        var zip64 = false
        /// Writes this local header offset in the central ZIP64 extra field instead of the entry's real one.
        var zip64Offset: UInt64? = nil

        /// An honest entry for `contents`, stored or deflated.
        static func honest(_ name: String, _ contents: Data, deflated: Bool = false) throws -> Entry {
            let payload = deflated ? try CraftedZip.deflate(contents) : contents
            return Entry(
                name: name, method: deflated ? 8 : 0, payload: payload, crc: CraftedZip.crc32(contents),
                compressedSize: UInt64(payload.count), uncompressedSize: UInt64(contents.count))
        }
    }

    /// A raw deflate stream of `contents`, from Python's zlib (DocumentArchive stores every entry, so it makes none).
    static func deflate(_ contents: Data) throws -> Data {
        let script = """
            import sys, zlib
            deflater = zlib.compressobj(6, zlib.DEFLATED, -15)
            sys.stdout.buffer.write(deflater.compress(sys.stdin.buffer.read()) + deflater.flush())
            """
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], input: contents)
        guard outcome.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: ["python3": outcome.errorOutput])
        }
        return outcome.standardOutput
    }

    /// The archive: local headers and data, central directory, ZIP64 end records when any entry needs them, end.
    static func archive(_ entries: [Entry]) -> Data {
        var out = [UInt8]()
        var central = [UInt8]()
        for entry in entries {
            let offset = UInt64(out.count)
            let name = Array(entry.name.utf8)
            let compressed32 = entry.zip64 ? UInt32.max : UInt32(truncatingIfNeeded: entry.compressedSize)
            let uncompressed32 = entry.zip64 ? UInt32.max : UInt32(truncatingIfNeeded: entry.uncompressedSize)
            var localExtra = [UInt8]()
            if entry.zip64 {
                localExtra.le16(1)
                localExtra.le16(16)
                localExtra.le64(entry.uncompressedSize)
                localExtra.le64(entry.compressedSize)
            }
            out.le32(0x0403_4B50)
            out.le16(entry.zip64 ? 45 : 20)
            out.le16(0)
            out.le16(entry.method)
            out.le16(0)
            out.le16(0x21)
            out.le32(entry.crc)
            out.le32(compressed32)
            out.le32(uncompressed32)
            out.le16(UInt16(name.count))
            out.le16(UInt16(localExtra.count))
            out += name + localExtra
            out += entry.payload

            var centralExtra = [UInt8]()
            if entry.zip64 {
                centralExtra.le16(1)
                centralExtra.le16(entry.zip64Offset == nil ? 16 : 24)
                centralExtra.le64(entry.uncompressedSize)
                centralExtra.le64(entry.compressedSize)
                if let zip64Offset = entry.zip64Offset { centralExtra.le64(zip64Offset) }
            }
            central.le32(0x0201_4B50)
            central.le16(0x031E)  // made by Unix, 3.0
            central.le16(entry.zip64 ? 45 : 20)
            central.le16(0)
            central.le16(entry.method)
            central.le16(0)
            central.le16(0x21)
            central.le32(entry.crc)
            central.le32(compressed32)
            central.le32(uncompressed32)
            central.le16(UInt16(name.count))
            central.le16(UInt16(centralExtra.count))
            central.le16(0)
            central.le16(0)
            central.le16(0)
            central.le32(0o100644 << 16)  // a regular file
            central.le32(entry.zip64Offset == nil ? UInt32(offset) : UInt32.max)
            central += name + centralExtra
        }
        let centralOffset = UInt64(out.count)
        out += central
        if entries.contains(where: \.zip64) {
            let zip64End = UInt64(out.count)
            out.le32(0x0606_4B50)
            out.le64(44)
            out.le16(45)
            out.le16(45)
            out.le32(0)
            out.le32(0)
            out.le64(UInt64(entries.count))
            out.le64(UInt64(entries.count))
            out.le64(UInt64(central.count))
            out.le64(centralOffset)
            out.le32(0x0706_4B50)
            out.le32(0)
            out.le64(zip64End)
            out.le32(1)
        }
        out.le32(0x0605_4B50)
        out.le16(0)
        out.le16(0)
        out.le16(UInt16(entries.count))
        out.le16(UInt16(entries.count))
        out.le32(UInt32(central.count))
        out.le32(UInt32(centralOffset))
        out.le16(0)
        return Data(out)
    }

    /// CRC-32 (IEEE 802.3), as ZIP uses.
    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}

extension [UInt8] {
    fileprivate mutating func le16(_ value: UInt16) { append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8)]) }
    fileprivate mutating func le32(_ value: UInt32) {
        le16(UInt16(value & 0xFFFF))
        le16(UInt16(value >> 16))
    }
    fileprivate mutating func le64(_ value: UInt64) {
        le32(UInt32(value & 0xFFFF_FFFF))
        le32(UInt32(value >> 32))
    }
    fileprivate func le16(at index: Int) -> UInt16 { UInt16(self[index]) | UInt16(self[index + 1]) << 8 }
    fileprivate func le32(at index: Int) -> UInt32 { UInt32(le16(at: index)) | UInt32(le16(at: index + 2)) << 16 }
}
