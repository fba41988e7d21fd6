import Crypto
import Foundation
import Secrets

/// Counts requests against a ``RateLimit``: one token bucket per key (an API user's identifier, a client address, a
/// hash of a landing token), in memory, for this process.
///
/// Each bucket is kept as the time at which it will be full again (the generic cell rate algorithm, a token bucket
/// in exact arithmetic): a request moves that time one interval (a minute / ``RateLimit/perMinute``) later, and is
/// refused while the time lies more than `burst - 1` intervals ahead. A bucket that is full again is the same as no
/// bucket, so such buckets are dropped as the table grows: memory follows the keys that asked recently. Key a
/// limiter by a secret's hash (`SHA256Digest`), never by the secret. Safe to call from any task; the clock is
/// injected so that tests move time by hand.
package final class RateLimiter<Key: Hashable & Sendable>: Sendable {
    /// What ``acquire(for:)`` decided.
    package enum Decision: Hashable, Sendable {
        /// The request may go ahead; it was counted.
        case allowed
        /// The key's bucket is empty; one more request is allowed after `retryAfter`. Nothing was counted.
        case limited(retryAfter: Duration)
    }

    private struct State {
        /// When each key's bucket is full again.
        var fullAt: [Key: Duration] = [:]
        /// The table size at which the next sweep of full buckets runs.
        var sweepAt: Int
    }

    /// Where every replica's requests are counted together, under a name for this limit; `nil` for this process
    /// alone.
    package let shared: (name: String, store: any RateBucketStore)?
    /// The limit it enforces.
    package let limit: RateLimit
    private let clock: any CofferClock
    private let sweepThreshold: Int
    private let state: Locked<State>

    /// Creates a limiter for `limit`, reading the time from `clock` (the system's unless a test gives another);
    /// with `shared`, ``acquireAcrossReplicas(for:)`` counts in that store under that name.
    package convenience init(
        limit: RateLimit, clock: any CofferClock = SystemClock(),
        shared: (name: String, store: any RateBucketStore)? = nil
    ) {
        self.init(limit: limit, clock: clock, sweepThreshold: 1024, shared: shared)
    }

    /// Creates a limiter that sweeps full buckets out once the table holds `sweepThreshold` of them, or twice as
    /// many as the last sweep left.
    init(
        limit: RateLimit, clock: any CofferClock, sweepThreshold: Int,
        shared: (name: String, store: any RateBucketStore)? = nil
    ) {
        self.shared = shared
        self.limit = limit
        self.clock = clock
        self.sweepThreshold = max(1, sweepThreshold)
        self.state = Locked(State(sweepAt: max(1, sweepThreshold)))
    }

    /// Counts one request for `key` if its bucket has one left.
    package func acquire(for key: Key) -> Decision {
        guard !limit.isUnlimited else { return .allowed }
        let instant = clock.uptime
        let interval = Duration.seconds(60) / limit.perMinute
        let tolerance = interval * (max(1, limit.burst) - 1)
        return state.withLock { state in
            let fullAt = max(state.fullAt[key] ?? instant, instant)
            let ahead = fullAt - instant
            guard ahead <= tolerance else { return .limited(retryAfter: ahead - tolerance) }
            state.fullAt[key] = fullAt + interval
            if state.fullAt.count >= state.sweepAt {
                state.fullAt = state.fullAt.filter { $0.value > instant }
                state.sweepAt = max(sweepThreshold, state.fullAt.count * 2)
            }
            return .allowed
        }
    }

    /// Counts one request for `key` in the bucket every replica shares (``shared``), or this process's without one.
    /// The store sees only the SHA-256 of the limit's name and the key. When the store cannot be reached the request
    /// is counted here instead: a database that went away never lifts the limit.
    package func acquireAcrossReplicas(for key: Key) async -> Decision {
        guard let shared, !limit.isUnlimited else { return acquire(for: key) }
        let bucket = Data(SHA256.hash(data: Data("\(shared.name)\u{0}\(key)".utf8)))
        do {
            guard let wait = try await shared.store.takeFromRateBucket(bucket, limit: limit, now: clock.now) else {
                return .allowed
            }
            return .limited(retryAfter: wait)
        } catch {
            return acquire(for: key)
        }
    }

    /// How many buckets are held (full ones not yet swept out included).
    package var trackedBucketCount: Int { state.withLock { $0.fullAt.count } }
}
