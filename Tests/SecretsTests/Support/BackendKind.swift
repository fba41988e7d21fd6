import CofferTestSupport
import Foundation
import Secrets
import Testing

/// The backends that ship with `Secrets`, each made fresh in its own temporary directory.
enum BackendKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory
    case file
    case encryptedFileAES
    case encryptedFileChaCha

    var testDescription: String { rawValue }

    /// A PBKDF2 count low enough to keep tests fast; the format and code path are those of the default.
    static let testIterations = 1_000

    func makeBackend(in directory: TemporaryDirectory) throws -> any SecretsBackend {
        let url = directory.appending("store-\(UUID().uuidString)")
        switch self {
        case .inMemory:
            return InMemoryBackend()
        case .file:
            return try FileBackend(directory: url)
        case .encryptedFileAES:
            return try EncryptedFileBackend(
                directory: url, key: .passphrase("test passphrase"),
                options: .init(algorithm: .aes256GCM, iterations: Self.testIterations))
        case .encryptedFileChaCha:
            return try EncryptedFileBackend(
                directory: url, key: .passphrase("test passphrase"),
                options: .init(algorithm: .chaCha20Poly1305, iterations: Self.testIterations))
        }
    }
}
