import Foundation

/// CRC-32 as ZIP uses it (ISO-HDLC: reflected polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF).
///
/// Slicing-by-16: sixteen 256-entry tables let each step fold 16 bytes with 16 independent table loads, far faster
/// than a byte-at-a-time table (`Benchmarks/RESULTS.md`).
enum ZIPChecksum {
    /// The CRC-32 of `data`, continuing from `crc` (the CRC of the bytes before it; 0 to start).
    static func checksum(_ data: Data, continuing crc: UInt32 = 0) -> UInt32 {
        data.withUnsafeBytes { checksum($0, continuing: crc) }
    }

    /// The CRC-32 of `bytes`, continuing from `crc` (the CRC of the bytes before it; 0 to start).
    static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            var state = ~crc
            guard let base = bytes.baseAddress, let t = table.baseAddress else { return crc }
            let count = bytes.count
            var offset = 0
            while offset + 16 <= count {
                let a = base.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian ^ state
                let b = base.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self).littleEndian
                let c = base.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self).littleEndian
                let d = base.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self).littleEndian
                var x = t[0xF00 | Int(a & 0xFF)] ^ t[0xE00 | Int((a >> 8) & 0xFF)]
                x ^= t[0xD00 | Int((a >> 16) & 0xFF)] ^ t[0xC00 | Int(a >> 24)]
                x ^= t[0xB00 | Int(b & 0xFF)] ^ t[0xA00 | Int((b >> 8) & 0xFF)]
                x ^= t[0x900 | Int((b >> 16) & 0xFF)] ^ t[0x800 | Int(b >> 24)]
                x ^= t[0x700 | Int(c & 0xFF)] ^ t[0x600 | Int((c >> 8) & 0xFF)]
                x ^= t[0x500 | Int((c >> 16) & 0xFF)] ^ t[0x400 | Int(c >> 24)]
                x ^= t[0x300 | Int(d & 0xFF)] ^ t[0x200 | Int((d >> 8) & 0xFF)]
                x ^= t[0x100 | Int((d >> 16) & 0xFF)] ^ t[Int(d >> 24)]
                state = x
                offset += 16
            }
            while offset < count {
                state =
                    t[Int((state ^ UInt32(base.load(fromByteOffset: offset, as: UInt8.self))) & 0xFF)] ^ (state >> 8)
                offset += 1
            }
            return ~state
        }
    }

    /// Table `k` (entries `k * 256 ..< (k + 1) * 256`) gives the CRC of a byte followed by `k` zero bytes.
    private static let table: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 16 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            table[byte] = crc
        }
        for slice in 1..<16 {
            for byte in 0..<256 {
                let previous = table[(slice - 1) * 256 + byte]
                table[slice * 256 + byte] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
        return table
    }()
}
