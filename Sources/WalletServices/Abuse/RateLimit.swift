import Foundation

/// How often one caller (an API token, a client address) may make a kind of request: a token bucket that holds
/// ``burst`` requests and refills at ``perMinute`` a minute.
///
/// A caller that empties its bucket is answered `429 Too Many Requests` with a `Retry-After` header until the bucket
/// has refilled by one. ``perMinute`` `0` turns the limit off (``unlimited``).
public struct RateLimit: Hashable, Sendable {
    /// The requests a caller regains each minute; `0` means no limit.
    public var perMinute: Int
    /// The requests a caller may make at once, after a quiet spell (the bucket's size); at least 1 when limited.
    public var burst: Int

    /// 60 a minute, 20 at once.
    public static let `default` = RateLimit(perMinute: 60, burst: 20)
    /// No limit.
    public static let unlimited = RateLimit(perMinute: 0, burst: 0)
    /// How many management requests that change a pass or hand it out (create, change, void, expire, download,
    /// share links) one API user may make: 600 a minute, 100 at once. Each costs a signature, and a change pushes to
    /// every device of the pass and notifies the client's webhooks.
    public static let passChanges = RateLimit(perMinute: 600, burst: 100)

    /// Creates a limit of `perMinute` requests a minute, `burst` at once.
    public init(perMinute: Int, burst: Int) {
        self.perMinute = perMinute
        self.burst = burst
    }

    /// Whether the limit is off (``perMinute`` is `0`).
    public var isUnlimited: Bool { perMinute == 0 }

    /// Checks that the limit is usable: ``perMinute`` is not negative, and a limit that is on has a ``burst`` of at
    /// least 1.
    ///
    /// - Throws: ``WalletServerError/invalidConfiguration(_:)`` naming the setting as `rate` or `burst` name it (by
    ///   default the issuance limit's option and variable).
    public func validate(
        rate: String = "--issuance-rate-limit (\(WalletServerConfiguration.Variable.issuanceRateLimit))",
        burst: String = "--issuance-burst (\(WalletServerConfiguration.Variable.issuanceBurst))"
    ) throws {
        guard perMinute >= 0 else {
            throw WalletServerError.invalidConfiguration("\(rate) must be 0 (no limit) or a number a minute")
        }
        guard isUnlimited || self.burst >= 1 else {
            throw WalletServerError.invalidConfiguration("\(burst) must be at least 1 when \(rate) limits")
        }
    }

    /// ``validate(rate:burst:)`` naming the change budget's option and variables.
    public func validateAsChangeLimit() throws {
        try validate(
            rate: "--change-rate-limit (\(WalletServerConfiguration.Variable.changeRateLimit))",
            burst: "--change-burst (\(WalletServerConfiguration.Variable.changeBurst))")
    }
}
