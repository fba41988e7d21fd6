import Crypto
import Foundation
import LocalData
import Secrets
import SecretsPlatform

/// A LocalData file store named on the command line, with what its directory name says about it.
struct DataStoreDirectory {
    /// How the store protects its values, as its directory name says.
    enum Kind: Equatable {
        /// `…/LocalData/files`.
        case plain
        /// `…/LocalData/encrypted/<cipher>-<derivation>-<source>`.
        case encrypted(EncryptionAlgorithm, passphrase: Bool, source: KeyMaterialSource)
    }

    let url: URL
    let kind: Kind

    /// Reads a store path.
    ///
    /// - Throws: a usage failure for a directory that is not a LocalData store's.
    init(_ path: String) throws {
        url = StoreOptions.absoluteURL(path)
        let name = url.lastPathComponent
        let parent = url.deletingLastPathComponent()
        if name == "files", parent.lastPathComponent == FileValueStore.folderName {
            kind = .plain
            return
        }
        if parent.lastPathComponent == "encrypted",
            parent.deletingLastPathComponent().lastPathComponent == FileValueStore.folderName,
            let algorithm = EncryptionAlgorithm.allCases.first(where: { name.hasPrefix($0.rawValue + "-") })
        {
            let rest = name.dropFirst(algorithm.rawValue.count + 1)
            for (prefix, passphrase) in [("pbkdf2-", true), ("hkdf-", false)] where rest.hasPrefix(prefix) {
                let source = String(rest.dropFirst(prefix.count))
                if (try? StorageLocations.validateAppGroup(source)) != nil {
                    kind = .encrypted(algorithm, passphrase: passphrase, source: KeyMaterialSource(source))
                    return
                }
            }
        }
        throw CommandFailure(
            "\(url.path) is not a LocalData store: name …/LocalData/files or "
                + "…/LocalData/encrypted/<cipher>-<pbkdf2|hkdf>-<source>", status: .usage)
    }

    /// Opens the store.
    ///
    /// - Parameters:
    ///   - create: Whether a missing store may be created.
    ///   - keyFile: A file holding the 32-byte key of an hkdf store.
    ///   - passphrase: Reads the passphrase of a pbkdf2 store (called only for one).
    ///   - service: The app's identifier: the service of items and of the stored key.
    ///   - iterations: PBKDF2 iterations for a new pbkdf2 store.
    func open(
        create: Bool, keyFile: String?, passphrase: () throws -> Passphrase, service: String, iterations: Int
    ) throws -> any SecretsBackend {
        let exists = FileManager.default.fileExists(atPath: url.path)
        guard exists || create else { throw CommandFailure("there is no store at \(url.path)", status: .notFound) }
        switch kind {
        case .plain:
            return try CommandFailure.mapping { try FileBackend(directory: url) }
        case .encrypted(let algorithm, let usesPassphrase, let source):
            let key: KeySource
            if usesPassphrase {
                key = .passphrase(try passphrase())
            } else if let keyFile {
                key = try Self.rawKey(in: StoreOptions.absoluteURL(keyFile))
            } else {
                key = try CommandFailure.mapping {
                    try KeySource.stored(
                        in: SecretsStack.select().backend,
                        at: SecretQuery(service: service, account: "localdata.keys/\(source.rawValue)"),
                        createIfMissing: create && !exists)
                }
            }
            return try CommandFailure.mapping {
                try EncryptedFileBackend(
                    directory: url, key: key,
                    options: .command(createIfMissing: create, algorithm: algorithm, iterations: iterations))
            }
        }
    }

    /// The key of a file of exactly 32 bytes: what `FixedKeyMaterialProvider(.key(…))` hands LocalData.
    private static func rawKey(in url: URL) throws -> KeySource {
        guard let bytes = FileManager.default.contents(atPath: url.path) else {
            throw CommandFailure("cannot read the key file \(url.path)", status: .failure)
        }
        guard bytes.count == 32 else {
            throw CommandFailure("the key file \(url.path) holds \(bytes.count) bytes, not 32", status: .usage)
        }
        return .key(SymmetricKey(data: bytes))
    }
}
