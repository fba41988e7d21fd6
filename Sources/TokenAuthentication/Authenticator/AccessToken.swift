import Foundation

/// A short-lived access token and when it stops being used. It prints without its value.
public struct AccessToken: Sendable, Hashable, CustomStringConvertible {
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
}

/// A token endpoint's JSON answers (RFC 6749 §5.1 and §5.2).
struct TokenResponse: Decodable {
    let accessToken: String
    let tokenType: String
    let expiresIn: Double?
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
        if let number = try? container.decodeIfPresent(Double.self, forKey: .expiresIn) {
            expiresIn = number
        } else if let text = try container.decodeIfPresent(String.self, forKey: .expiresIn) {
            guard let number = Double(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .expiresIn, in: container, debugDescription: "expires_in is not a number")
            }
            expiresIn = number
        } else {
            expiresIn = nil
        }
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
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
