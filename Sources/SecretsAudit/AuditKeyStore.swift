import Crypto
import Foundation
import Secrets

/// Where an audit file's key and checkpoints live: items in the secret store the audit records.
///
/// - The key, 32 random bytes made on first use, is kept at ``keyAccount``. Anyone who can read it could forge
///   records, exactly as anyone who can read the store can read every secret in it. After the key, the same item
///   keeps a ledger: for each audit file (by path), how many checkpoints were saved.
/// - A checkpoint (the chain's first MAC, its last record's sequence number and MAC, and its number in the ledger)
///   is kept per file, so that records cut from the end of the file, an emptied or deleted file, and a file that
///   holds another chain are detected too. A checkpoint item that is removed, or put back from an older copy, no
///   longer matches the ledger in the key's item.
///
/// Reading and writing these items is not itself audited (it would record itself without end).
public struct AuditKeyStore: Sendable {
    /// The store that keeps the key and checkpoints.
    public let store: any SecretsDataStoring
    /// The key's account path.
    public let keyAccount: String

    /// The default key path.
    public static let defaultKeyAccount = "coffer-audit/key"

    /// Keeps the key at `keyAccount` in `store` (unwrapped if it is an ``AuditedSecretsStore``).
    public init(store: any SecretsDataStoring, keyAccount: String = defaultKeyAccount) {
        self.store = (store as? AuditedSecretsStore)?.base ?? store
        self.keyAccount = keyAccount
    }

    /// The key, or `nil` when the store has none.
    public func key() throws(SecretsAuditError) -> SymmetricKey? {
        try keyItem()?.key
    }

    /// The key, made and saved first if the store has none.
    public func keyCreatingIfMissing() throws(SecretsAuditError) -> SymmetricKey {
        if let key = try key() { return key }
        let key = SymmetricKey(size: .bits256)
        try access { try store.saveData(key.withUnsafeBytes { Data($0) }, account: keyAccount) }
        return key
    }

    /// The checkpoint of the audit file at `url`, or `nil` when none was saved for it.
    public func checkpoint(forFileAt url: URL) throws(SecretsAuditError) -> AuditCheckpoint? {
        try checkpoint(at: fileCheckpointAccount(url))
    }

    /// How many checkpoints were saved for the audit file at `url`, as the ledger beside the key says; `nil` when
    /// none was.
    public func savedCheckpointCount(forFileAt url: URL) throws(SecretsAuditError) -> UInt64? {
        try keyItem()?.ledger.files[Self.fileName(url)]
    }

    /// Saves `checkpoint` for the audit file at `url`, numbered one above every checkpoint saved for it before, and
    /// counts it in the ledger. Call it while holding the file's exclusive lock.
    public func saveCheckpoint(_ checkpoint: AuditCheckpoint, forFileAt url: URL) throws(SecretsAuditError) {
        guard var item = try keyItem() else { throw .missingKey(account: keyAccount) }
        let name = Self.fileName(url)
        let previous = max(item.ledger.files[name] ?? 0, try self.checkpoint(forFileAt: url)?.counter ?? 0)
        var numbered = checkpoint
        numbered.counter = previous + 1
        let data = (try? JSONEncoder().encode(numbered)) ?? Data()
        try access { try store.saveData(data, account: fileCheckpointAccount(url)) }
        item.ledger.files[name] = previous + 1
        try saveKeyItem(item)
    }

    /// Forgets the checkpoints of the audit file at `url` (its item and its ledger entry), so that a new file may
    /// start there: for an operator who moved the old file aside on purpose.
    public func forgetCheckpoints(forFileAt url: URL) throws(SecretsAuditError) {
        guard var item = try keyItem() else { return }
        _ = try access { try store.deleteData(account: fileCheckpointAccount(url)) }
        item.ledger.files[Self.fileName(url)] = nil
        try saveKeyItem(item)
    }

    /// The checkpoint a version that kept one per chain saved for the chain that starts with `firstMAC`, or `nil`.
    public func checkpoint(ofChainStartingWith firstMAC: Data) throws(SecretsAuditError) -> AuditCheckpoint? {
        try checkpoint(at: keyAccount + "-checkpoints/" + Self.shortName(firstMAC))
    }

    private func checkpoint(at account: String) throws(SecretsAuditError) -> AuditCheckpoint? {
        guard let data = try access({ try store.readData(account: account) }) else { return nil }
        guard let checkpoint = try? JSONDecoder().decode(AuditCheckpoint.self, from: data) else {
            throw .key(.corruptData("the audit checkpoint at '\(account)'"))
        }
        return checkpoint
    }

    /// The key's item: the key, then the ledger as JSON (absent in items a version without it wrote).
    private struct KeyItem {
        var key: SymmetricKey
        var ledger: Ledger
    }

    /// How many checkpoints were saved for each audit file, by ``fileName(_:)``.
    private struct Ledger: Codable {
        var files: [String: UInt64] = [:]
    }

    private func keyItem() throws(SecretsAuditError) -> KeyItem? {
        guard let data = try access({ try store.readData(account: keyAccount) }) else { return nil }
        guard data.count >= 32 else {
            throw .key(.corruptData("the audit key at '\(keyAccount)' is \(data.count) bytes, not 32"))
        }
        var ledger = Ledger()
        if data.count > 32 {
            guard let decoded = try? JSONDecoder().decode(Ledger.self, from: data.dropFirst(32)) else {
                throw .key(.corruptData("the audit key at '\(keyAccount)' has an unreadable ledger"))
            }
            ledger = decoded
        }
        return KeyItem(key: SymmetricKey(data: data.prefix(32)), ledger: ledger)
    }

    private func saveKeyItem(_ item: KeyItem) throws(SecretsAuditError) {
        var data = item.key.withUnsafeBytes { Data($0) }
        data.append((try? Self.ledgerEncoder.encode(item.ledger)) ?? Data())
        try access { try store.saveData(data, account: keyAccount) }
    }

    private static let ledgerEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    private func fileCheckpointAccount(_ url: URL) -> String {
        keyAccount + "-checkpoints/file-" + Self.fileName(url)
    }

    /// A file's name in the ledger: a short hash of its absolute path (its folder's symbolic links resolved).
    static func fileName(_ url: URL) -> String {
        let folder = url.deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath()
        return shortName(Data(folder.appendingPathComponent(url.lastPathComponent).path.utf8))
    }

    private static func shortName(_ data: Data) -> String {
        SHA256.hash(data: data).prefix(12).hexString
    }

    private func access<Result>(_ body: () throws -> Result) throws(SecretsAuditError) -> Result {
        do {
            return try SecretsError.catching(body)
        } catch {
            throw .key(error)
        }
    }
}

/// Where a chain of audit records ended when a writer last looked: its first MAC, its last sequence number and MAC,
/// and which checkpoint of the file it is.
public struct AuditCheckpoint: Codable, Hashable, Sendable {
    /// The last record's sequence number.
    public var sequence: UInt64
    /// The last record's MAC.
    public var mac: Data
    /// The first record's MAC: which chain the file held (`nil` in checkpoints of earlier versions).
    public var firstMAC: Data?
    /// The checkpoint's number among the file's checkpoints, from 1 (`nil` in checkpoints of earlier versions).
    public var counter: UInt64?

    /// Creates a checkpoint.
    public init(sequence: UInt64, mac: Data, firstMAC: Data? = nil, counter: UInt64? = nil) {
        self.sequence = sequence
        self.mac = mac
        self.firstMAC = firstMAC
        self.counter = counter
    }
}
