import Foundation

/// Request budgets every replica shares, so that N servers on one database allow what one does: the limits that
/// protect money and other clients (issuance, device registrations and logs, pass changes) count here when the
/// database is PostgreSQL (``RateLimiter/shared``). `SQLWalletRepository` implements it in `rate_buckets`.
package protocol RateBucketStore: Sendable {
    /// Counts one request in `bucket` under `limit` at `now` if the bucket has one left; `nil` when it did, else how
    /// long until it has.
    func takeFromRateBucket(_ bucket: Data, limit: RateLimit, now: Date) async throws -> Duration?
    /// Deletes up to `limit` buckets full again at `now` (the same as no bucket); returns how many it deleted.
    func deleteFullRateBuckets(now: Date, limit: Int) async throws -> Int
}
