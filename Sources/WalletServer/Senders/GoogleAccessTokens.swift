import Foundation
import Secrets
import WalletGoogle

/// The OAuth access tokens of Google service accounts, each asked for once and kept until five minutes before it
/// expires; callers that need one while it is being asked for wait for that request instead of making another.
actor GoogleAccessTokens {
    /// A token and when to stop using it.
    private struct Token {
        var value: String
        var renewAt: Date
    }

    /// How many accounts' tokens are kept; the one that expires first makes room.
    static let capacity = 256
    /// How long before its expiry a token is renewed.
    static let renewalMargin: TimeInterval = 300

    private var tokens: [String: Token] = [:]
    private var requests: [String: Task<Token, any Error>] = [:]
    private let clock: any CofferClock

    /// An empty cache dated by `clock`.
    init(clock: any CofferClock) {
        self.clock = clock
    }

    /// The key a token is kept under: the account and its key, so that a new key file signs in anew.
    static func key(of account: GoogleServiceAccount) -> String {
        account.clientEmail + "\n" + (account.privateKeyID ?? "")
    }

    /// A token of `account` good for five minutes at least, asked for through `request` (which answers the token
    /// and how many seconds it lasts) when none is kept.
    func token(
        for account: GoogleServiceAccount,
        request: @escaping @Sendable () async throws -> (token: String, lifetime: TimeInterval)
    ) async throws -> String {
        let key = Self.key(of: account)
        if let kept = tokens[key], kept.renewAt > clock.now { return kept.value }
        if let pending = requests[key] { return try await pending.value.value }
        let clock = clock
        let pending = Task<Token, any Error> {
            let asked = clock.now
            let (value, lifetime) = try await request()
            return Token(value: value, renewAt: asked.addingTimeInterval(max(0, lifetime - Self.renewalMargin)))
        }
        requests[key] = pending
        defer { requests[key] = nil }
        let token = try await pending.value
        if tokens.count >= Self.capacity, tokens[key] == nil,
            let soonest = tokens.min(by: { $0.value.renewAt < $1.value.renewAt })?.key
        {
            tokens[soonest] = nil
        }
        tokens[key] = token
        return token.value
    }

    /// Forgets `value` as `account`'s token (Google answered 401 to it), unless a newer one replaced it.
    func discard(_ value: String, of account: GoogleServiceAccount) {
        let key = Self.key(of: account)
        if tokens[key]?.value == value { tokens[key] = nil }
    }
}
