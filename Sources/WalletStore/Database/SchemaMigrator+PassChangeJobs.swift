import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Migration 20: bulk changes of passes as durable jobs.
    ///
    /// - `pass_change_jobs`: each job of a client (its idempotency key's request digest, the match and change it
    ///   applies, its counts, `finished_at` once no item waits). `worked_at` orders the jobs a runner takes turns
    ///   between.
    /// - `pass_change_items`: the job's work, one row per pass of a match (`pass_id`) or line of a list (`target_*`,
    ///   `change`), `pending` until the transaction that changes its pass marks it `changed`, `skipped` or `failed`
    ///   (with `error`); a runner holds the rows it works on under `leased_until`, and `attempts` counts its claims.
    /// - `pass_change_items_pending` and `_failed`: the items still to do, and those that failed, of each job, in
    ///   order, however many others it has.
    static func createPassChangeJobs(_ db: any SQLDatabase) async throws {
        try await db.create(table: "pass_change_jobs")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("client_id", type: .text, .notNull, .references("clients", "id"))
            .column("kind", type: .text, .notNull)
            .column("pass_type_id", type: .text)
            .column("match_fields", type: .text)
            .column("change", type: .text)
            .column("total", type: .bigint, .notNull)
            .column("matched", type: .bigint, .notNull, .default(SQLLiteral.numeric("0")))
            .column("changed", type: .bigint, .notNull, .default(SQLLiteral.numeric("0")))
            .column("skipped", type: .bigint, .notNull, .default(SQLLiteral.numeric("0")))
            .column("failed", type: .bigint, .notNull, .default(SQLLiteral.numeric("0")))
            .column("pushes", type: .bigint, .notNull, .default(SQLLiteral.numeric("0")))
            .column("created_at", type: .bigint, .notNull)
            .column("worked_at", type: .bigint, .notNull)
            .column("finished_at", type: .bigint)
            .run()
        try await db.raw(
            "CREATE INDEX pass_change_jobs_unfinished ON pass_change_jobs (worked_at, id) WHERE finished_at IS NULL"
        ).run()
        try await db.create(index: "pass_change_jobs_client").on("pass_change_jobs").column("client_id")
            .column("finished_at").run()
        try await db.create(index: "pass_change_jobs_finished").on("pass_change_jobs").column("finished_at").run()
        try await db.create(table: "pass_change_items")
            .column("job_id", type: .text, .notNull, .references("pass_change_jobs", "id"))
            .column("seq", type: .bigint, .notNull)
            .column("pass_id", type: .text)
            .column("target_attribute", type: .text)
            .column("target_value", type: .text)
            .column("change", type: .text)
            .column("state", type: .text, .notNull)
            .column("error", type: .text)
            .column("leased_until", type: .bigint)
            .column("attempts", type: .bigint, .notNull, .default(SQLLiteral.numeric("0")))
            .primaryKey("job_id", "seq")
            .run()
        try await db.raw(
            "CREATE INDEX pass_change_items_pending ON pass_change_items (job_id, seq) WHERE state = 'pending'"
        ).run()
        try await db.raw(
            "CREATE INDEX pass_change_items_failed ON pass_change_items (job_id, seq) WHERE state = 'failed'"
        ).run()
    }
}
