import Crypto
import Foundation

/// An authenticated cipher (AEAD) with a 256-bit key: AES-256-GCM or ChaCha20-Poly1305.
///
/// Every seal draws a fresh random 96-bit nonce and produces `nonce ‖ ciphertext ‖ tag`
/// (``sealedOverhead`` bytes longer than the plaintext). Opening checks the tag over the ciphertext and the
/// associated data together, so bytes moved from one context to another fail to open.
public enum EncryptionAlgorithm: String, Hashable, Sendable, Codable, CaseIterable {
    /// AES-256 in Galois/Counter Mode: the default, hardware-accelerated on current CPUs.
    case aes256GCM = "aes-256-gcm"
    /// ChaCha20-Poly1305: fast in software, for CPUs without AES instructions.
    case chaCha20Poly1305 = "chacha20-poly1305"

    /// The bytes a sealed box adds to its plaintext: a 12-byte nonce and a 16-byte tag.
    public static let sealedOverhead = 28

    /// Encrypts and authenticates `plaintext`, binding `associatedData` to it.
    public func seal(
        _ plaintext: some DataProtocol, using key: SymmetricKey, authenticating associatedData: some DataProtocol
    ) throws -> Data {
        var sealed = Data(capacity: plaintext.count + Self.sealedOverhead)
        try seal(plaintext, using: key, authenticating: associatedData, appendingTo: &sealed)
        return sealed
    }

    /// Seals `plaintext` like ``seal(_:using:authenticating:)`` and appends the box to `buffer`, so that a large
    /// value is copied into its final place once.
    public func seal(
        _ plaintext: some DataProtocol, using key: SymmetricKey, authenticating associatedData: some DataProtocol,
        appendingTo buffer: inout Data
    ) throws {
        switch self {
        case .aes256GCM:
            let box = try AES.GCM.seal(plaintext, using: key, authenticating: associatedData)
            buffer.append(contentsOf: box.nonce)
            buffer.append(box.ciphertext)
            buffer.append(box.tag)
        case .chaCha20Poly1305:
            let box = try ChaChaPoly.seal(plaintext, using: key, authenticating: associatedData)
            buffer.append(contentsOf: box.nonce)
            buffer.append(box.ciphertext)
            buffer.append(box.tag)
        }
    }

    /// Checks and decrypts a box from ``seal(_:using:authenticating:)``; throws if any byte of the box or of
    /// `associatedData` differs from what was sealed.
    public func open(
        _ sealed: some DataProtocol, using key: SymmetricKey, authenticating associatedData: some DataProtocol
    ) throws -> Data {
        switch self {
        case .aes256GCM:
            return try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key, authenticating: associatedData)
        case .chaCha20Poly1305:
            return try ChaChaPoly.open(
                ChaChaPoly.SealedBox(combined: sealed), using: key, authenticating: associatedData)
        }
    }

    /// The byte that names the algorithm inside an item file.
    var wireIdentifier: UInt8 {
        switch self {
        case .aes256GCM: return 1
        case .chaCha20Poly1305: return 2
        }
    }

    /// The algorithm an item file's identifier byte names.
    init?(wireIdentifier: UInt8) {
        guard let match = Self.allCases.first(where: { $0.wireIdentifier == wireIdentifier }) else { return nil }
        self = match
    }
}
