import Foundation
import Secrets
import X509

extension SigningIdentity {
    /// What a secret store holds for an identity: DER certificate, DER private key, DER intermediates.
    private struct StoredIdentity: Codable {
        var certificate: Data
        var privateKey: Data
        var intermediates: [Data]
    }

    /// Saves the identity (its private key included) in Coffer's secret store at `path`, so that the key lives
    /// encrypted there instead of in a file.
    public func save(to store: any SecretsDataStoring, at path: String) throws {
        let record = StoredIdentity(
            certificate: Data(try certificate.derBytes()), privateKey: privateKeyDER(),
            intermediates: try intermediates.map { Data(try $0.derBytes()) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try store.saveData(try encoder.encode(record), account: path)
    }

    /// Loads an identity that ``save(to:at:)`` stored at `path`.
    ///
    /// - Throws: ``WalletDocumentError/unreadableKey(_:)`` when there is none or it is damaged; the store's own
    ///   errors (locked, wrong passphrase) as they are.
    public init(from store: any SecretsDataStoring, at path: String) throws {
        guard let data = try store.readData(account: path) else {
            throw WalletDocumentError.unreadableKey("no signing identity is stored at '\(path)'")
        }
        let record: StoredIdentity
        do {
            record = try JSONDecoder().decode(StoredIdentity.self, from: data)
        } catch {
            throw WalletDocumentError.unreadableKey("the item at '\(path)' is not a stored signing identity")
        }
        try self.init(
            certificate: try Self.certificate(from: record.certificate, role: "the stored certificate"),
            privateKeyDER: record.privateKey,
            intermediates: try record.intermediates.map {
                try Self.certificate(from: $0, role: "a stored intermediate")
            })
    }
}
