import Foundation
@_spi(Testing) import Secrets
import Testing

/// The backends that ship with `Secrets`, each made fresh in its own temporary directory.
public enum BackendKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory
    case file
    case encryptedFileAES
    case encryptedFileChaCha

    /// The case's name, as test results show it.
    public var testDescription: String { rawValue }

    /// A new, empty backend of this kind, in a directory of its own under `directory`.
    public func makeBackend(in directory: TemporaryDirectory) throws -> any SecretsBackend {
        let url = directory.appending("store-\(UUID().uuidString)")
        switch self {
        case .inMemory:
            return InMemoryBackend()
        case .file:
            return try FileBackend(directory: url)
        case .encryptedFileAES:
            return try EncryptedFileBackend(
                directory: url, key: .passphrase("test passphrase"),
                options: .weakKeyDerivationForTesting(algorithm: .aes256GCM))
        case .encryptedFileChaCha:
            return try EncryptedFileBackend(
                directory: url, key: .passphrase("test passphrase"),
                options: .weakKeyDerivationForTesting(algorithm: .chaCha20Poly1305))
        }
    }
}
