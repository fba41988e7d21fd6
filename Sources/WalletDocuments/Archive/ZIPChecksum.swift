import Foundation

#if canImport(zlib)
    import zlib
#else
    import CZlib  // ZIPFoundation's zlib module on Linux
#endif

/// CRC-32 as ZIP uses it (ISO-HDLC: reflected polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF): zlib's
/// `crc32`, which ZIPFoundation already links.
enum ZIPChecksum {
    /// The CRC-32 of `data`, continuing from `crc` (the CRC of the bytes before it; 0 to start).
    static func checksum(_ data: Data, continuing crc: UInt32 = 0) -> UInt32 {
        data.withUnsafeBytes { checksum($0, continuing: crc) }
    }

    /// The CRC-32 of `bytes`, continuing from `crc` (the CRC of the bytes before it; 0 to start).
    static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var state = uLong(crc)
        var rest = bytes
        // zlib takes a 32-bit length: feed larger buffers in pieces.
        while let base = rest.baseAddress, !rest.isEmpty {
            let length = min(rest.count, Int(uInt.max))
            state = crc32(state, base.assumingMemoryBound(to: Bytef.self), uInt(length))
            rest = UnsafeRawBufferPointer(rebasing: rest[length...])
        }
        return UInt32(truncatingIfNeeded: state)
    }
}
