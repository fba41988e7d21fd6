import Foundation

/// What the SDK needs to call the Pronto API: the API key, the server, and how long a request may take.
///
/// The API key is an API user's token from Pronto's administration (or `coffer admin api-user create`). It never
/// appears in the configuration's `description`, `debugDescription` or `dump`.
public struct ProntoConfiguration: Sendable {
    /// The API user's token, sent as the user name of HTTP Basic authentication.
    public let apiKey: String
    /// The server.
    public let environment: ProntoEnvironment
    /// The most a request may take from start to finish, in seconds.
    public let timeout: TimeInterval

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - apiKey: The API user's token.
    ///   - environment: The server; production by default.
    ///   - timeout: The most a request may take, in seconds (30 by default).
    public init(apiKey: String, environment: ProntoEnvironment = .production, timeout: TimeInterval = 30.0) {
        self.apiKey = apiKey
        self.environment = environment
        self.timeout = timeout
    }
}

extension ProntoConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The environment and timeout; the API key shows as `<redacted>`.
    public var description: String {
        "ProntoConfiguration(apiKey: <redacted>, environment: \(environment), timeout: \(timeout))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror without the API key, so that `dump` does not print it.
    public var customMirror: Mirror {
        Mirror(self, children: ["apiKey": "<redacted>", "environment": environment, "timeout": timeout])
    }
}
