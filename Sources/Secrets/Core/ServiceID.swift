/// The typed, namespaced identifier of a secret: its path (for example `ai/openai`) and the type stored there.
///
/// The path becomes the item's *account* in every backend. `Value` is a phantom type that ties the identifier
/// to what is stored at it, so `store.read(OpenAISecret.id)` returns an `OpenAISecret?`.
///
/// ```swift
/// static let id = ServiceID<OpenAISecret>(path: "ai/openai")
/// ```
///
/// Creating an identifier does not validate it (so it can be a `static let`); every store and backend validates
/// the path with ``SecretPath/validate(path:)`` before using it, and ``validate()`` checks it up front.
public struct ServiceID<Value>: Hashable, Sendable, CustomStringConvertible {
    /// The `/`-separated path, used as the account.
    public let path: String

    /// Creates an identifier for the secret stored at `path`.
    public init(path: String) {
        self.path = path
    }

    /// Throws ``SecretsError/invalidIdentifier(_:reason:)`` unless ``path`` follows ``SecretPath``'s rules.
    public func validate() throws {
        try SecretPath.validate(path: path)
    }

    /// The path.
    public var description: String { path }
}
