import Crypto
import CryptoExtras
import Foundation

/// What unlocks an ``EncryptedFileBackend``: the secret its master key is wrapped with.
public enum KeySource: Sendable {
    /// A passphrase, stretched with PBKDF2-HMAC-SHA256.
    case passphrase(Passphrase)
    /// A file of at least 32 random bytes, expanded with HKDF-SHA256. Create one with
    /// ``EncryptedFileBackend/createKeyFile(at:)``.
    case keyFile(URL)
    /// A 256-bit key held elsewhere (for example in the platform keychain), expanded with HKDF-SHA256.
    case key(SymmetricKey)

    /// How the master key is protected, as the store header names it.
    var protection: MasterKeyProtection {
        switch self {
        case .passphrase: return .pbkdf2
        case .keyFile: return .keyFile
        case .key: return .rawKey
        }
    }
}

/// The ways a store's master key can be wrapped, as recorded in its header.
enum MasterKeyProtection: String, Codable, Sendable {
    case pbkdf2 = "pbkdf2-hmac-sha256"
    case keyFile = "key-file-hkdf-sha256"
    case rawKey = "raw-key-hkdf-sha256"

    var noun: String {
        switch self {
        case .pbkdf2: return "a passphrase"
        case .keyFile: return "a key file"
        case .rawKey: return "a raw key"
        }
    }
}

/// Derives the key-encryption key that wraps a store's master key.
package enum KeyEncryptionKey {
    /// The PBKDF2-HMAC-SHA256 iteration count OWASP recommends (Password Storage Cheat Sheet, 2023).
    static let recommendedIterations = 600_000
    /// The fewest iterations a new passphrase wrap may use (a sixth of the recommendation); only tests go lower,
    /// through an explicit switch.
    static let minimumIterations = 100_000
    /// The most iterations a store header may ask for; more would let a hostile header stall every unlock.
    static let maximumIterations = 10_000_000
    /// The size of a key file's random content, and the fewest bytes a key file may have.
    static let keyFileSize = 32
    static let maximumKeyFileSize = 4096

    /// The iteration count for a new wrap of a store's master key: `requested`, never less than `current` (the
    /// count the store already has, so that a re-wrap never weakens it).
    ///
    /// - Throws: `unsupported` when `requested` is above the maximum, or below the minimum without
    ///   `allowingWeak` (the test-only switch).
    static func iterationsForNewWrap(requested: Int, current: Int?, allowingWeak: Bool) throws -> Int {
        let floor = allowingWeak ? 1 : minimumIterations
        guard (floor...maximumIterations).contains(requested) else {
            throw SecretsError.unsupported(
                "\(requested) PBKDF2 iterations; use \(minimumIterations) to \(maximumIterations) "
                    + "(\(recommendedIterations) recommended)")
        }
        return max(requested, current ?? 0)
    }

    static func derive(from source: KeySource, salt: Data, iterations: Int) throws -> SymmetricKey {
        switch source {
        case .passphrase(let passphrase):
            guard !passphrase.isEmpty else {
                throw SecretsError.unsupported("an empty passphrase; choose a passphrase")
            }
            return try stretch(passphrase, salt: salt, iterations: iterations)
        case .keyFile(let url):
            return expand(try readKeyFile(url), salt: salt, info: "coffer.key-file.v1")
        case .key(let key):
            guard key.bitCount == 256 else { throw SecretsError.unsupported("a \(key.bitCount)-bit key; use 256 bits") }
            return expand(key, salt: salt, info: "coffer.raw-key.v1")
        }
    }

    /// A 256-bit key from `passphrase`: PBKDF2-HMAC-SHA256 with `iterations` rounds (the caller bounds them).
    package static func stretch(_ passphrase: Passphrase, salt: Data, iterations: Int) throws -> SymmetricKey {
        try KDF.Insecure.PBKDF2.deriveKey(
            from: passphrase.utf8, salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: iterations)
    }

    /// A 256-bit key from a key: HKDF-SHA256, with `info` naming what the key is for.
    package static func expand(_ key: SymmetricKey, salt: Data, info: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, salt: salt, info: Data(info.utf8), outputByteCount: 32)
    }

    private static func readKeyFile(_ url: URL) throws -> SymmetricKey {
        let directory = StoreDirectory(root: url.deletingLastPathComponent())
        guard let bytes = try directory.read(url.lastPathComponent, limit: maximumKeyFileSize) else {
            throw SecretsError.unavailable("the key file \(url.path) does not exist")
        }
        guard bytes.count >= keyFileSize else {
            throw SecretsError.unsupported("a key file of \(bytes.count) bytes; it needs at least \(keyFileSize)")
        }
        return SymmetricKey(data: bytes)
    }
}

extension KeySource {
    /// A 256-bit key kept in another backend, typically the platform's keychain, so that an encrypted file store
    /// opens without a passphrase: the key is read from `query` in `backend`, or, with `createIfMissing`, made
    /// from the system's random generator and saved there first.
    ///
    /// - Throws: `unavailable` when there is no key and `createIfMissing` is off (an existing store then cannot be
    ///   opened: the key was lost), `corruptData` when the stored key is not 32 bytes, and the backend's errors
    ///   (a locked keyring is `locked`).
    public static func stored(
        in backend: any SecretsBackend, at query: SecretQuery<Data>, createIfMissing: Bool
    ) throws -> KeySource {
        if let bytes = try backend.read(query) {
            guard bytes.count == KeyEncryptionKey.keyFileSize else {
                throw SecretsError.corruptData("the file store key at \(query.service)/\(query.account)")
            }
            return .key(SymmetricKey(data: bytes))
        }
        guard createIfMissing else {
            throw SecretsError.unavailable(
                "there is no file store key at \(query.service)/\(query.account) in the platform store")
        }
        let key = SymmetricKey(size: .bits256)
        try backend.save(key.withUnsafeBytes { Data($0) }, for: query)
        return .key(key)
    }
}
