import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Migration 13: `rate_buckets`, the request budgets every replica shares (`RateBucketStore`): per bucket (the
    /// SHA-256 of the limit's name and the caller's key, never the key), the time in milliseconds at which it is full
    /// again.
    static func createRateBuckets(_ db: any SQLDatabase) async throws {
        try await db.create(table: "rate_buckets")
            .column("bucket", type: .blob, .primaryKey(autoIncrement: false))
            .column("full_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "rate_buckets_full_at").on("rate_buckets").column("full_at").run()
    }
}
