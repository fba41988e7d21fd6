import Foundation
import Secrets

/// What can go wrong storing or reading a key's value; no case carries a value.
public enum StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The value could not be turned into bytes by the key's serializer.
    case serializationFailed(key: String, serializer: String, reason: String)
    /// The stored bytes are not a value of the key's type.
    case deserializationFailed(key: String, valueType: String, reason: String)
    /// The key is not available on this platform.
    case unavailableOnPlatform(key: String, availability: PlatformAvailability)
    /// The key was used without being registered in the catalog.
    case unregisteredKey(String)
    /// Two keys in a catalog share a name.
    case duplicateKey(String)
    /// A key in a catalog has no description.
    case missingDescription(String)
    /// The key's domain and security policy do not go together (say, a keychain policy on a plain file).
    case invalidConfiguration(key: String, reason: String)
    /// A value is larger than its domain or sync policy accepts.
    case payloadTooLarge(key: String, byteCount: Int, limit: Int)
    /// The store under the domain failed (locked, unavailable, tampered data, I/O…).
    case store(key: String, SecretsError)
    /// No ``KeyMaterialProviding`` is registered for the key's ``KeyMaterialSource``.
    case missingKeyMaterial(KeyMaterialSource)
    /// The source's material does not suit the derivation (a passphrase needs PBKDF2, a random key HKDF).
    case keyMaterialMismatch(source: KeyMaterialSource, keyDerivation: KeyDerivation)
    /// A catalog failed validation; each problem is listed.
    case invalidCatalog([StorageError])
    /// The value could not be sent to the paired watch.
    case syncFailed(key: String, reason: String)
    /// Something the router called failed in a way none of the cases above describes.
    case failed(key: String, reason: String)

    /// A message that says what went wrong and what to do.
    public var description: String {
        switch self {
        case .serializationFailed(let key, let serializer, let reason):
            return "the value of '\(key)' could not be encoded as \(serializer): \(reason)"
        case .deserializationFailed(let key, let valueType, let reason):
            return "the stored value of '\(key)' is not a \(valueType): \(reason)"
        case .unavailableOnPlatform(let key, let availability):
            return "'\(key)' is not available on this platform (it is \(availability.rawValue))"
        case .unregisteredKey(let key):
            return "'\(key)' is not registered in the storage key catalog: add it to the catalog"
        case .duplicateKey(let key):
            return "more than one key is named '\(key)': give each key a unique name"
        case .missingDescription(let key):
            return "'\(key)' has no description: say what the value is for"
        case .invalidConfiguration(let key, let reason):
            return "'\(key)' is configured inconsistently: \(reason)"
        case .payloadTooLarge(let key, let byteCount, let limit):
            return "the value of '\(key)' is \(byteCount) bytes, more than the limit of \(limit)"
        case .store(let key, let error):
            return "'\(key)': \(error)"
        case .missingKeyMaterial(let source):
            return "no key material provider is registered for '\(source)': add one to the router's configuration"
        case .keyMaterialMismatch(let source, let derivation):
            let needs = derivation == .hkdf ? "a random key" : "a passphrase"
            return "the key material of '\(source)' does not suit \(derivation): it needs \(needs)"
        case .invalidCatalog(let problems):
            return "the storage key catalog is invalid: "
                + problems.map(\.description).joined(separator: "; ")
        case .syncFailed(let key, let reason):
            return "'\(key)' could not be synced to the watch: \(reason)"
        case .failed(let key, let reason):
            return "'\(key)': \(reason)"
        }
    }
}
