import Foundation

/// A backend that can store an item only where there is none, in one step: two writers of one account never both
/// believe they made it (what a key that exists once, such as a Secure Enclave key's record, needs).
public protocol SecretsExclusiveCreating: SecretsBackend {
    /// Stores `data` at `query` unless an item is there already; returns whether it stored it.
    func create<Value>(_ data: Data, for query: SecretQuery<Value>) throws -> Bool
}
