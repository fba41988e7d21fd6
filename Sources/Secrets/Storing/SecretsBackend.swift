import Foundation

/// A place that stores bytes at a ``SecretQuery``: the one low-level layer every Coffer front door ends in.
///
/// Implementations must be safe to call from many threads at once. They validate each query
/// (``SecretQuery/validate()``) before touching storage, return `nil` for a missing item, and throw
/// ``SecretsError`` for everything else: a locked or unreachable store is never reported as a missing item.
/// The `SecretsTesting` module has a conformance suite that every backend should pass.
public protocol SecretsBackend: Sendable {
    /// Stores `data` at `query`, replacing any value already there.
    func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws
    /// Returns the bytes at `query`, or `nil` if there are none.
    func read<Value>(_ query: SecretQuery<Value>) throws -> Data?
    /// Removes the item at `query`; returns whether there was one.
    @discardableResult
    func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool
    /// The accounts stored under `service` in `accessGroup` (`nil`: the default group), sorted.
    func listAccounts(service: String, accessGroup: String?) throws -> [String]
    /// A short name for logs and the access audit, such as `encrypted-file` or `secret-service`.
    var backendName: String { get }
}

extension SecretsBackend {
    /// The type's name without its `Backend` suffix, in kebab case: `EncryptedFileBackend` is `encrypted-file`.
    public var backendName: String {
        var name = String(describing: type(of: self))
        if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
        if name.hasSuffix("Backend"), name != "Backend" { name.removeLast("Backend".count) }
        var kebab = ""
        for character in name {
            if character.isUppercase, !kebab.isEmpty { kebab.append("-") }
            kebab.append(contentsOf: character.lowercased())
        }
        return kebab
    }
}
