import Foundation
import SQLKit
import WalletServices

extension SQLWalletRepository: RateBucketStore {
    /// The generic cell rate algorithm of `RateLimiter`, in one statement: the bucket's full-again time moves one
    /// interval later unless it lies more than `burst - 1` intervals ahead, under the row's lock, so concurrent
    /// replicas count one after the other.
    package func takeFromRateBucket(_ bucket: Data, limit: RateLimit, now: Date) async throws -> Duration? {
        guard !limit.isUnlimited else { return nil }
        let nowMS = Self.ms(now)
        let interval = Int64(60_000 / Double(limit.perMinute))
        let tolerance = interval * Int64(max(1, limit.burst) - 1)
        return try await run {
            let taken = try await sql.raw(
                """
                INSERT INTO rate_buckets (bucket, full_at) VALUES (\(bind: bucket), \(bind: nowMS + interval)) \
                ON CONFLICT (bucket) DO UPDATE SET full_at = (CASE WHEN rate_buckets.full_at > \(bind: nowMS) \
                THEN rate_buckets.full_at ELSE \(bind: nowMS) END) + \(bind: interval) \
                WHERE rate_buckets.full_at - \(bind: nowMS) <= \(bind: tolerance) RETURNING full_at
                """
            ).all()
            guard taken.isEmpty else { return nil }
            let fullAt =
                try await sql.select().column("full_at").from("rate_buckets").where("bucket", .equal, SQLBind(bucket))
                .first(decodingColumn: "full_at", as: Int64.self) ?? nowMS
            return .milliseconds(max(1, fullAt - nowMS - tolerance))
        }
    }

    /// Deletes up to `limit` buckets full again at `now`.
    package func deleteFullRateBuckets(now: Date, limit: Int) async throws -> Int {
        guard limit > 0 else { return 0 }
        return try await run {
            try await sql.raw(
                """
                DELETE FROM rate_buckets WHERE bucket IN \
                (SELECT bucket FROM rate_buckets WHERE full_at <= \(bind: Self.ms(now)) LIMIT \(bind: limit)) \
                RETURNING bucket
                """
            ).all()
        }.count
    }
}
