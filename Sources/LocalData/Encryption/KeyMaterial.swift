import Crypto
import Foundation
import Secrets

/// What a ``KeyMaterialProviding`` hands over: a passphrase (for ``KeyDerivation/pbkdf2(iterations:)``) or a
/// random 256-bit key (for ``KeyDerivation/hkdf``). Neither prints.
public enum KeyMaterial: Sendable {
    /// A passphrase, stretched with PBKDF2-HMAC-SHA256.
    case passphrase(Passphrase)
    /// A 256-bit random key, expanded with HKDF-SHA256.
    case key(SymmetricKey)

    /// The encrypted file store's key source for this material.
    var keySource: KeySource {
        switch self {
        case .passphrase(let passphrase): return .passphrase(passphrase)
        case .key(let key): return .key(key)
        }
    }

    /// Whether this material suits `derivation`.
    func suits(_ derivation: KeyDerivation) -> Bool {
        switch (self, derivation) {
        case (.passphrase, .pbkdf2), (.key, .hkdf): return true
        default: return false
        }
    }
}

/// Supplies the key material of one or more ``KeyMaterialSource``s.
public protocol KeyMaterialProviding: Sendable {
    /// The material for `source`; throw ``StorageError`` (or a ``Secrets/SecretsError``) when it cannot be had.
    func keyMaterial(for source: KeyMaterialSource) async throws -> KeyMaterial
}

/// Key material that is given up front: a passphrase the user typed, a key from a configuration service.
public struct FixedKeyMaterialProvider: KeyMaterialProviding {
    private let material: KeyMaterial

    /// Supplies `material` for every source it is registered for.
    public init(_ material: KeyMaterial) {
        self.material = material
    }

    /// The material.
    public func keyMaterial(for source: KeyMaterialSource) async throws -> KeyMaterial { material }
}

/// A random 256-bit key per source, made on first use and kept in a secret store (the platform key store by
/// default): the encrypted data opens without a passphrase, on this device only.
///
/// A key that was made once and is gone later is an error (`unavailable`), never silently replaced: the data it
/// protected would become unreadable.
public struct StoredKeyMaterialProvider: KeyMaterialProviding {
    private let backend: @Sendable () throws -> any SecretsBackend
    private let service: String
    private let createIfMissing: Bool

    /// Keeps keys in `backend` under `service`, at `localdata.keys/<source>`.
    public init(
        service: String, createIfMissing: Bool = true, backend: @escaping @Sendable () throws -> any SecretsBackend
    ) {
        self.backend = backend
        self.service = service
        self.createIfMissing = createIfMissing
    }

    /// The source's key, made and saved first if there is none.
    public func keyMaterial(for source: KeyMaterialSource) async throws -> KeyMaterial {
        let query = SecretQuery<Data>(
            service: service, account: "localdata.keys/\(source.rawValue)",
            accessPolicy: AccessPolicy(accessibility: .afterFirstUnlockThisDeviceOnly))
        guard case .key(let key) = try KeySource.stored(in: try backend(), at: query, createIfMissing: createIfMissing)
        else { throw SecretsError.corruptData("the key of \(source)") }
        return .key(key)
    }
}
