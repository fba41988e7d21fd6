import Foundation
import Secrets

/// Why no access token could be had. No case carries a token, a secret or a credential.
public enum TokenAuthenticationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// There is no usable credential (none stored, or one without what its grant needs).
    case missingCredential(String)
    /// The credential store failed (locked, unavailable…).
    case credentialStore(SecretsError)
    /// The server rejected the grant (`invalid_grant`): an expired or revoked refresh token, say. When
    /// `refreshTokenCleared` is set, the stored refresh token was removed and the user must sign in again.
    case invalidGrant(description: String?, refreshTokenCleared: Bool)
    /// The server refused the request with another OAuth error (`invalid_client`, `unauthorized_client`,
    /// `invalid_scope`, `unsupported_grant_type`, `invalid_request`…), or a 4xx without one.
    case rejected(status: Int, error: String?, description: String?)
    /// The server kept failing (5xx or 429) after every retry.
    case serverUnavailable(status: Int, attempts: Int)
    /// The server could not be reached (connection refused, timed out, DNS…) after every retry.
    case transport(reason: String, attempts: Int)
    /// The server answered 2xx with something that is not an RFC 6749 token response.
    case malformedResponse(String)
    /// The request was cancelled.
    case cancelled
    /// The token endpoint is not https (and not this machine): nothing was sent to it.
    case insecureEndpoint(String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .missingCredential(let reason):
            return "no usable credential: \(reason)"
        case .credentialStore(let error):
            return "the credential store failed: \(error)"
        case .invalidGrant(let description, let cleared):
            let detail = description.map { ": \($0)" } ?? ""
            return "the token endpoint rejected the grant (invalid_grant)\(detail)"
                + (cleared ? "; the stored refresh token was cleared: sign in again" : "")
        case .rejected(let status, let error, let description):
            let detail = [error, description].compactMap { $0 }.joined(separator: ": ")
            return "the token endpoint refused the request (HTTP \(status)\(detail.isEmpty ? "" : ", \(detail)"))"
        case .serverUnavailable(let status, let attempts):
            return
                "the token endpoint kept failing (HTTP \(status)) after \(attempts) attempt\(attempts == 1 ? "" : "s")"
        case .transport(let reason, let attempts):
            return "the token endpoint could not be reached after \(attempts) attempt\(attempts == 1 ? "" : "s"): "
                + reason
        case .malformedResponse(let reason):
            return "the token endpoint's answer is not a token response: \(reason)"
        case .cancelled:
            return "the token request was cancelled"
        case .insecureEndpoint(let url):
            return "the token endpoint \(url) is not https: the client secret and refresh tokens would travel in the "
                + "clear; use its https URL"
        }
    }
}
