import Foundation
import Secrets

/// The Secret Service where there is none (Apple platforms): every call throws `unavailable`.
struct UnavailableSecretServiceClient: SecretServiceClient {
    private var unavailable: SecretsError {
        .unavailable("the Secret Service is a Linux desktop facility; use the Keychain on Apple platforms")
    }

    func search(_ attributes: [String: String], loadSecrets: Bool, loadAttributes: Bool) throws
        -> [SecretServiceItem]
    { throw unavailable }
    func lookup(_ attributes: [String: String]) throws -> Data? { throw unavailable }
    func store(_ value: Data, attributes: [String: String], label: String) throws { throw unavailable }
    func delete(_ attributes: [String: String], where isMatch: ([String: String]) -> Bool) throws -> Int {
        throw unavailable
    }
    func isDefaultCollectionLocked() throws -> Bool { throw unavailable }
    func lockDefaultCollection() throws { throw unavailable }
}
