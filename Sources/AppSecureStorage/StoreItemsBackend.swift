import Foundation
import Secrets

/// The items of a shared ``Secrets/SecretsStore`` as the backend of a ``Keychain/KeychainEngine``, so the engine
/// caches them and reads them synchronously: reads and listings go to the store's
/// ``Secrets/SecretsStore/base`` by account (the store's own service and access group apply). Writes are refused:
/// they go through the actor, so that they serialize with every other writer and reach the store's subscribers.
struct StoreItemsBackend: SecretsBackend {
    let base: any SecretsDataStoring

    func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws {
        throw SecretsError.unsupported("writing '\(query.account)' through the engine: write through the SecretsStore")
    }

    func read<Value>(_ query: SecretQuery<Value>) throws -> Data? {
        try base.readData(account: query.account)
    }

    func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool {
        throw SecretsError.unsupported(
            "deleting '\(query.account)' through the engine: delete through the SecretsStore")
    }

    func listAccounts(service: String, accessGroup: String?) throws -> [String] {
        try base.listAccounts()
    }
}
