import Foundation
import Secrets

// Example secret types (OpenAI, Gemini, Notion, Schwab, Tradier). They are app code, not library API: each app declares the
// secrets it needs in the same way.

/// An OpenAI API key.
struct OpenAISecret: Codable, SecretCoder, Equatable {
    static let id = ServiceID<OpenAISecret>(path: "ai/openai")
    var apiKey: String
    var organization: String?
}

/// A Google Gemini API key.
struct GeminiSecret: Codable, SecretCoder, Equatable {
    static let id = ServiceID<GeminiSecret>(path: "ai/gemini")
    var apiKey: String
}

/// A Notion integration token and the database it reads.
struct NotionSecret: Codable, SecretCoder, Equatable {
    static let id = ServiceID<NotionSecret>(path: "database/notion")
    var token: String
    var databaseID: String
}

/// Schwab OAuth client credentials.
struct SchwabCredentialsSecret: Codable, SecretCoder, Equatable {
    static let id = ServiceID<SchwabCredentialsSecret>(path: "brokers/schwab/credentials")
    var clientID: String
    var clientSecret: String
    var updatedAt: Date

    /// Schwab's refresh tokens expire after seven days; warn a day ahead.
    func validate() -> [PreflightIssue] {
        let age = Date().timeIntervalSince(updatedAt)
        guard age > 6 * 86_400 else { return [] }
        return [.warn("last refreshed \(Int(age / 86_400)) days ago; Schwab refresh tokens expire after 7 days")]
    }
}

/// A Tradier access token and the accounts it may trade, kept together as one envelope.
struct TradierSecureEnvelope: Codable, SecretCoder, Equatable {
    static let id = ServiceID<TradierSecureEnvelope>(path: "brokers/tradier/envelope")
    var accessToken: String
    var accountNumbers: [String]
    var sandbox: Bool

    func validate() -> [PreflightIssue] {
        accountNumbers.isEmpty ? [.error("the envelope lists no account; add the account numbers it may trade")] : []
    }
}
