import Foundation

/// A short-lived access token and when it stops being used. It prints without its value, in `description`,
/// `debugDescription` and `dump`.
public struct AccessToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The token.
    public let value: String
    /// The token type (`Bearer`).
    public let tokenType: String
    /// The scope granted, when the server said.
    public let scope: String?
    /// When, on the authenticator's clock, the token expires.
    public let expiresAt: Duration

    /// The token's type and scope; never its value.
    public var description: String {
        "AccessToken(\(tokenType), scope: \(scope ?? "-"), value: <redacted>)"
    }

    /// The same text as ``description``.
    public var debugDescription: String { description }

    /// What `dump` and debuggers show: every property but the value, which is `<redacted>`.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "value": "<redacted>", "tokenType": tokenType, "scope": scope as Any, "expiresAt": expiresAt,
            ])
    }
}

/// A token endpoint's JSON answers (RFC 6749 §5.1 and §5.2).
struct TokenResponse: Decodable {
    let accessToken: String
    let tokenType: String
    /// The lifetime in seconds: finite, not negative (a negative one is 0), at most ``maximumExpiresIn``.
    let expiresIn: Double?
    /// The longest lifetime believed: ten years. A larger `expires_in` (servers send 1e16, or `"Infinity"`) is
    /// taken as this, so that converting it to a `Duration` cannot overflow.
    static let maximumExpiresIn: Double = 10 * 365 * 24 * 60 * 60
    let refreshToken: String?
    let scope: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        // Some servers send expires_in as a string; RFC 6749 says a number.
        let seconds: Double?
        if let number = try? container.decodeIfPresent(Double.self, forKey: .expiresIn) {
            seconds = number
        } else if let text = try container.decodeIfPresent(String.self, forKey: .expiresIn) {
            seconds = Double(text)
            if seconds == nil {
                throw DecodingError.dataCorruptedError(
                    forKey: .expiresIn, in: container, debugDescription: "expires_in is not a number")
            }
        } else {
            seconds = nil
        }
        if let seconds, !seconds.isFinite {
            throw DecodingError.dataCorruptedError(
                forKey: .expiresIn, in: container, debugDescription: "expires_in is not a finite number")
        }
        expiresIn = seconds.map { min(max(0, $0), Self.maximumExpiresIn) }
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
    }
}

extension TokenResponse {
    /// ``expiresIn`` as a `Duration`, to the millisecond.
    var lifetime: Duration? {
        expiresIn.map { .milliseconds(Int64(exactly: ($0 * 1000).rounded(.down)) ?? 0) }
    }
}

/// An OAuth error answer (RFC 6749 §5.2).
struct OAuthErrorResponse: Decodable {
    let error: String
    let errorDescription: String?

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
