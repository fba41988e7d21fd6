import Crypto
import Foundation
import Secrets

/// The backend behind a measured store.
public enum AuditBackendKind: String, CaseIterable, Sendable {
    /// ``EncryptedFileBackend`` opened with a raw key (unlocking is not what is measured).
    case encryptedFile = "encrypted file"
    /// ``InMemoryBackend``: the cheapest read, so the worst case for the audit's share.
    case inMemory = "in memory"

    /// A name usable in a file name.
    public var slug: String { self == .encryptedFile ? "encrypted-file" : "in-memory" }

    /// The account the 64 B value is stored at.
    public static let account = "bench/value-64"
    /// The value read.
    public static let value = Data((0..<64).map { UInt8(truncatingIfNeeded: $0) })

    /// A store over a new backend of this kind (in `directory` for the encrypted file store) holding ``value`` at
    /// ``account``.
    public func makeStore(in directory: URL) throws -> AggregateSecretsStore {
        let backend: any SecretsBackend
        switch self {
        case .encryptedFile:
            backend = try EncryptedFileBackend(
                directory: directory.appendingPathComponent("store-\(slug)"), key: .key(SymmetricKey(size: .bits256)))
        case .inMemory:
            backend = InMemoryBackend()
        }
        let store = AggregateSecretsStore(backend: backend)
        try store.saveData(Self.value, account: Self.account)
        return store
    }
}
