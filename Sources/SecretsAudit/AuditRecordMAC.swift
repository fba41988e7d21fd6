import Crypto
import Foundation
import Secrets

/// HMAC-SHA256 (RFC 2104) under one key, for the audit file writer's hot loop: exactly the MAC that `HMAC<SHA256>`
/// computes, with both padded key blocks hashed once, when the encoder is made.
///
/// Built on `SHA256`'s `update(bufferPointer:)` because `HMAC`'s only public `update` is generic over `DataProtocol`
/// and, not being inlinable, looks up type metadata for the data's regions on every call, a large share of the file
/// sink's cost per record (`Benchmarks/RESULTS.md`). The tests check it against `HMAC<SHA256>`
/// for keys shorter than, as long as and longer than SHA-256's 64-byte block.
struct AuditRecordMAC {
    /// SHA-256 after the key XOR `ipad`: what every message's inner hash continues.
    private let inner: SHA256
    /// SHA-256 after the key XOR `opad`: what every inner digest's outer hash continues.
    private let outer: SHA256

    /// SHA-256's block size in bytes, to which HMAC pads the key.
    private static let blockSize = 64

    /// Keys the MAC with `key`.
    init(key: SymmetricKey) {
        var block = [UInt8](repeating: 0, count: Self.blockSize)
        key.withUnsafeBytes { key in
            if key.count > Self.blockSize {
                SHA256.hash(data: key).withUnsafeBytes { block.replaceSubrange(0..<$0.count, with: $0) }
            } else {
                block.replaceSubrange(0..<key.count, with: key)
            }
        }
        var inner = SHA256()
        var outer = SHA256()
        for index in block.indices { block[index] ^= 0x36 }
        block.withUnsafeBytes { inner.update(bufferPointer: $0) }
        // (key XOR 0x36) XOR (0x36 XOR 0x5c) is key XOR 0x5c.
        for index in block.indices { block[index] ^= 0x36 ^ 0x5c }
        block.withUnsafeBytes { outer.update(bufferPointer: $0) }
        for index in block.indices { block[index] = 0 }
        self.inner = inner
        self.outer = outer
    }

    /// The MAC of `message`: 32 bytes.
    func code(for message: UnsafeRawBufferPointer) -> Data {
        var inner = inner
        inner.update(bufferPointer: message)
        var outer = outer
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize().withUnsafeBytes { Data($0) }
    }
}
