import Foundation
import Secrets

/// A store that reads and writes only typed secrets, seen as bytes at the credential's own path, so that an
/// ``AccessTokenStorage`` can put it behind a ``Secrets/SecretsStore`` like any other. Other paths are
/// ``Secrets/SecretsError/unsupported(_:)``.
struct CredentialOnlyStore: SecretsDataStoring {
    let store: any SecretsStoring

    func save<C: SecretCoder>(_ secret: C) throws { try store.save(secret) }
    func read<C: SecretCoder>(_ id: ServiceID<C>) throws -> C? { try store.read(id) }
    func delete<C: SecretCoder>(_ id: ServiceID<C>) throws { try store.delete(id) }
    func listAccounts() throws -> [String] { try store.listAccounts() }

    func saveData(_ data: Data, account: String) throws {
        try check(account)
        let credential: OAuthCredential
        do {
            credential = try OAuthCredential(decode: data)
        } catch {
            throw SecretsError.encodingFailed(type: "OAuthCredential", reason: "\(type(of: error))")
        }
        try store.save(credential)
    }

    func readData(account: String) throws -> Data? {
        try check(account)
        return try store.read(OAuthCredential.id)?.encode()
    }

    func deleteData(account: String) throws -> Bool {
        try check(account)
        guard try store.read(OAuthCredential.id) != nil else { return false }
        try store.delete(OAuthCredential.id)
        return true
    }

    private func check(_ account: String) throws {
        guard account == OAuthCredential.id.path else {
            throw SecretsError.unsupported(
                "saving a credential at \(account) in a store that only writes at a type's own path")
        }
    }
}
