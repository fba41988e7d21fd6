import Foundation
import Secrets

/// The long-lived credential an authenticator exchanges for access tokens: OAuth 2.0 client credentials, a
/// refresh token, or an API key. It is a secret: it prints as `<redacted>`.
///
/// ```swift
/// try store.save(OAuthCredential.clientCredentials(clientID: "reports", clientSecret: secret, scope: "read"))
/// ```
public struct OAuthCredential: Codable, Hashable, Sendable, SecretCoder {
    /// Which grant the credential is exchanged with.
    public enum Grant: String, Codable, Hashable, Sendable {
        /// `grant_type=client_credentials` (RFC 6749 §4.4).
        case clientCredentials = "client_credentials"
        /// `grant_type=refresh_token` (RFC 6749 §6).
        case refreshToken = "refresh_token"
        /// An API key exchanged with an extension grant (RFC 6749 §4.5); see ``TokenEndpoint/apiKeyGrantType``.
        case apiKey = "api_key"
    }

    /// Where credentials are kept unless told otherwise.
    public static let id = ServiceID<OAuthCredential>(path: "oauth/credential")

    /// The grant.
    public var grant: Grant
    /// The client's identifier (client credentials; optional for refresh tokens of public clients).
    public var clientID: String?
    /// The client's secret (confidential clients).
    public var clientSecret: String?
    /// The refresh token; `nil` after the server rejected it with `invalid_grant`.
    public var refreshToken: String?
    /// The API key.
    public var apiKey: String?
    /// The scope to ask for (space-separated), if any.
    public var scope: String?

    /// Creates a credential from its parts; prefer the static constructors.
    public init(
        grant: Grant, clientID: String? = nil, clientSecret: String? = nil, refreshToken: String? = nil,
        apiKey: String? = nil, scope: String? = nil
    ) {
        self.grant = grant
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.refreshToken = refreshToken
        self.apiKey = apiKey
        self.scope = scope
    }

    /// A confidential client's credentials (`client_credentials` grant).
    public static func clientCredentials(clientID: String, clientSecret: String, scope: String? = nil) -> Self {
        Self(grant: .clientCredentials, clientID: clientID, clientSecret: clientSecret, scope: scope)
    }

    /// A refresh token (`refresh_token` grant), with the client it was issued to.
    public static func refreshToken(
        _ token: String, clientID: String? = nil, clientSecret: String? = nil, scope: String? = nil
    ) -> Self {
        Self(grant: .refreshToken, clientID: clientID, clientSecret: clientSecret, refreshToken: token, scope: scope)
    }

    /// An API key, exchanged with the endpoint's API-key grant.
    public static func apiKey(_ key: String, scope: String? = nil) -> Self {
        Self(grant: .apiKey, apiKey: key, scope: scope)
    }

    /// What is missing for the credential's grant.
    public func validate() -> [PreflightIssue] {
        var issues: [PreflightIssue] = []
        func require(_ value: String?, _ field: String) {
            if value?.isEmpty ?? true { issues.append(.error("\(field) is missing for the \(grant.rawValue) grant")) }
        }
        switch grant {
        case .clientCredentials:
            require(clientID, "clientID")
            require(clientSecret, "clientSecret")
        case .refreshToken:
            require(refreshToken, "refreshToken")
        case .apiKey:
            require(apiKey, "apiKey")
        }
        return issues
    }
}
