import Foundation
import Secrets

/// Where, and how protected, one key's bytes are kept: what the router works out from a key before it touches
/// storage.
struct StoragePlacement: Sendable {
    /// The store that holds the bytes.
    enum Store: Sendable {
        /// A defaults suite (`nil`: the standard defaults).
        case defaults(suite: String?)
        /// The key store, with the item's access policy.
        case keychain(AccessPolicy)
        /// A file store; `encryption` is set for an encrypted one.
        case files(directory: URL, encryption: Encryption?)
    }

    /// How an encrypted store or a sealed value is keyed.
    struct Encryption: Sendable, Hashable {
        let algorithm: EncryptionAlgorithm
        let keyDerivation: KeyDerivation
        let source: KeyMaterialSource

    }

    /// The key's name: the account or defaults key the bytes are stored under.
    let name: String
    /// The store.
    let store: Store
    /// Set when each value is sealed on its own (``SecurityPolicy/encrypted(algorithm:keyDerivation:)`` outside
    /// the encrypted file domain).
    let sealing: Encryption?

    /// Works out where `key` goes.
    ///
    /// - Throws: the validation problem of the key's metadata (a bad name, a policy its domain cannot honour),
    ///   and `unavailable` for an app group the app is not in.
    init(_ key: StorageKeyDescriptor, locations: StorageLocations) throws(StorageError) {
        if let problem = StorageKeyValidation.problem(with: key) { throw problem }
        name = key.name
        let encryption: Encryption?
        if case .encrypted(let algorithm, let derivation) = key.security {
            encryption = Encryption(algorithm: algorithm, keyDerivation: derivation, source: key.keyMaterialSource)
        } else {
            encryption = nil
        }
        do {
            switch key.domain {
            case .userDefaults:
                store = .defaults(suite: nil)
                sealing = encryption
            case .appGroupUserDefaults(let identifier):
                store = .defaults(suite: identifier)
                sealing = encryption
            case .keychain:
                store = .keychain(key.security.accessPolicy ?? AccessPolicy(accessibility: .whenUnlocked))
                sealing = encryption
            case .fileSystem(let directory):
                store = .files(
                    directory: FileValueStore.plainStoreDirectory(in: locations.url(for: directory)), encryption: nil
                )
                sealing = encryption
            case .appGroupFileSystem(let identifier, let directory):
                let base = try locations.url(for: directory, inAppGroup: identifier)
                store = .files(directory: FileValueStore.plainStoreDirectory(in: base), encryption: nil)
                sealing = encryption
            case .encryptedFileSystem(let directory):
                let storeEncryption =
                    encryption
                    ?? Encryption(algorithm: .aes256GCM, keyDerivation: .hkdf, source: key.keyMaterialSource)
                store = .files(
                    directory: FileValueStore.encryptedStoreDirectory(
                        in: locations.url(for: directory), algorithm: storeEncryption.algorithm,
                        keyDerivation: storeEncryption.keyDerivation, source: storeEncryption.source),
                    encryption: storeEncryption)
                sealing = nil
            }
        } catch let error as SecretsError {
            throw .store(key: key.name, error)
        } catch {
            throw .failed(key: key.name, reason: "\(error)")
        }
    }

}
