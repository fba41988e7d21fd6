import Foundation
import Secrets

/// The store of a process whose platform store could not be chosen: every call throws why, so that code holding it
/// reports the reason (a locked keyring, no session bus) on each use rather than failing at start-up.
package struct UnavailableBackend: SecretsBackend {
    /// What every call throws.
    package let error: SecretsError

    /// A store whose every call throws `error`.
    package init(_ error: SecretsError) {
        self.error = error
    }

    /// Throws ``error``.
    package func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws { throw error }

    /// Throws ``error``.
    package func read<Value>(_ query: SecretQuery<Value>) throws -> Data? { throw error }

    /// Throws ``error``.
    package func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool { throw error }

    /// Throws ``error``.
    package func listAccounts(service: String, accessGroup: String?) throws -> [String] { throw error }
}
