import Crypto
import Foundation

/// Where an audit file's key and checkpoints live: items in the secret store the audit records.
///
/// - The key, 32 random bytes made on first use, is kept at ``keyAccount``. Anyone who can read it could forge
///   records, exactly as anyone who can read the store can read every secret in it.
/// - A checkpoint (the last record's sequence number and MAC) is kept per chain, named by the chain's first MAC,
///   so that records cut from the end of the file are detected too: the file cannot then end before the checkpoint.
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
        guard let data = try access({ try store.readData(account: keyAccount) }) else { return nil }
        guard data.count == 32 else {
            throw .key(.corruptData("the audit key at '\(keyAccount)' is \(data.count) bytes, not 32"))
        }
        return SymmetricKey(data: data)
    }

    /// The key, made and saved first if the store has none.
    public func keyCreatingIfMissing() throws(SecretsAuditError) -> SymmetricKey {
        if let key = try key() { return key }
        let key = SymmetricKey(size: .bits256)
        try access { try store.saveData(key.withUnsafeBytes { Data($0) }, account: keyAccount) }
        return key
    }

    /// The last record a writer of the chain that starts with `firstMAC` saw, or `nil`.
    public func checkpoint(ofChainStartingWith firstMAC: Data) throws(SecretsAuditError) -> AuditCheckpoint? {
        guard let data = try access({ try store.readData(account: checkpointAccount(firstMAC)) }) else { return nil }
        guard let checkpoint = try? JSONDecoder().decode(AuditCheckpoint.self, from: data) else {
            throw .key(.corruptData("the audit checkpoint at '\(checkpointAccount(firstMAC))'"))
        }
        return checkpoint
    }

    /// Saves `checkpoint` for the chain that starts with `firstMAC`.
    public func saveCheckpoint(_ checkpoint: AuditCheckpoint, ofChainStartingWith firstMAC: Data)
        throws(SecretsAuditError)
    {
        let data = (try? JSONEncoder().encode(checkpoint)) ?? Data()
        try access { try store.saveData(data, account: checkpointAccount(firstMAC)) }
    }

    private func checkpointAccount(_ firstMAC: Data) -> String {
        let name = SHA256.hash(data: firstMAC).prefix(12).map { String(format: "%02x", $0) }.joined()
        return keyAccount + "-checkpoints/" + name
    }

    private func access<Result>(_ body: () throws -> Result) throws(SecretsAuditError) -> Result {
        do {
            return try SecretsError.catching(body)
        } catch {
            throw .key(error)
        }
    }
}

/// Where a chain of audit records ended when a writer last looked: its last sequence number and MAC.
public struct AuditCheckpoint: Codable, Hashable, Sendable {
    /// The last record's sequence number.
    public var sequence: UInt64
    /// The last record's MAC.
    public var mac: Data

    /// Creates a checkpoint.
    public init(sequence: UInt64, mac: Data) {
        self.sequence = sequence
        self.mac = mac
    }
}
