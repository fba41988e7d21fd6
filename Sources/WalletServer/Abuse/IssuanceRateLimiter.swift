import Secrets
import Crypto
import Foundation

/// Counts each API token's issuances against an ``IssuanceRateLimit``: one token bucket per API user, in memory, for
/// this process.
///
/// Each bucket is kept as the time at which it will be full again (the generic cell rate algorithm, a token bucket
/// in exact arithmetic): an issuance moves that time one interval (a minute / ``IssuanceRateLimit/perMinute``)
/// later, and is refused while the time lies more than `burst - 1` intervals ahead. Buckets are keyed by the API
/// user's identifier (``APIUser/id``), never by the token. A bucket that is full again is the same as no bucket, so
/// such buckets are dropped as the table grows: memory follows the tokens that issued recently. Safe to call from
/// any task; the clock is injected so that tests move time by hand.
public final class IssuanceRateLimiter: Sendable {
    /// What ``acquire(for:)`` decided.
    public enum Decision: Hashable, Sendable {
        /// The issuance may go ahead; it was counted.
        case allowed
        /// The token's bucket is empty; one more issuance is allowed after `retryAfter`. Nothing was counted.
        case limited(retryAfter: Duration)
    }

    private struct State {
        /// When each API user's bucket is full again.
        var fullAt: [UUID: ContinuousClock.Instant] = [:]
        /// The table size at which the next sweep of full buckets runs.
        var sweepAt: Int
    }

    /// The limit it enforces.
    public let limit: IssuanceRateLimit
    private let now: @Sendable () -> ContinuousClock.Instant
    private let sweepThreshold: Int
    private let state: Locked<State>

    /// Creates a limiter for `limit`, reading the time from `now` (the continuous clock unless a test gives another).
    public convenience init(
        limit: IssuanceRateLimit, now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.init(limit: limit, now: now, sweepThreshold: 1024)
    }

    /// Creates a limiter that sweeps full buckets out once the table holds `sweepThreshold` of them, or twice as
    /// many as the last sweep left.
    init(limit: IssuanceRateLimit, now: @escaping @Sendable () -> ContinuousClock.Instant, sweepThreshold: Int) {
        self.limit = limit
        self.now = now
        self.sweepThreshold = max(1, sweepThreshold)
        self.state = Locked(State(sweepAt: max(1, sweepThreshold)))
    }

    /// Counts one issuance for the API user `apiUserID` if its bucket has one left.
    public func acquire(for apiUserID: UUID) -> Decision {
        guard !limit.isUnlimited else { return .allowed }
        let instant = now()
        let interval = Duration.seconds(60) / limit.perMinute
        let tolerance = interval * (max(1, limit.burst) - 1)
        return state.withLock { state in
            let fullAt = max(state.fullAt[apiUserID] ?? instant, instant)
            let ahead = instant.duration(to: fullAt)
            guard ahead <= tolerance else { return .limited(retryAfter: ahead - tolerance) }
            state.fullAt[apiUserID] = fullAt + interval
            if state.fullAt.count >= state.sweepAt {
                state.fullAt = state.fullAt.filter { $0.value > instant }
                state.sweepAt = max(sweepThreshold, state.fullAt.count * 2)
            }
            return .allowed
        }
    }

    /// The bucket of `value` of `kind` (a client address, a landing token) for a limiter keyed by something other
    /// than an API user: the first 16 bytes of a SHA-256, so the value itself is not kept.
    public static func bucket(_ kind: String, _ value: String) -> UUID {
        let digest = Array(SHA256.hash(data: Data("\(kind):\(value)".utf8)))
        return UUID(
            uuid: (
                digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7], digest[8],
                digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]
            ))
    }

    /// How many API users' buckets are held (full ones not yet swept out included).
    public var trackedBucketCount: Int { state.withLock { $0.fullAt.count } }
}
