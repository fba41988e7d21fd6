import Foundation
import Secrets
import Logging
import ServiceLifecycle

/// Deletes expired provisioning sessions in the background: every ``interval``, batch after batch of
/// ``batchSize`` until none is left, so the table holds only sessions that can still be used or just were; and, the
/// same way, the web flow's expired landing links and share links, the management API's idempotency keys older than
/// ``IdempotencyKey/lifetime``, and passes' trace events and failed webhook deliveries older than ``traceRetention``.
///
/// A failed sweep (the database away) is logged and tried again at the next interval; the service stops at graceful
/// shutdown, before the storage closes when it is listed after `StorageLifecycle`.
package struct SessionPurger: Service {
    /// What it deletes from.
    package let repository: any ExpiringRecordStore & LandingLinkStore
    /// The time between sweeps.
    package let interval: Duration
    /// The most sessions one statement deletes.
    package let batchSize: Int
    /// Where the deleted sessions are counted (`coffer_provisioning_sessions_expired_total`), if anywhere.
    package let metrics: ServerMetrics?
    /// How long passes' trace events are kept.
    package let traceRetention: TimeInterval
    let clock: any CofferClock
    let logger: Logger

    /// Creates a purger that sweeps `repository` every `interval`, deleting at most `batchSize` rows a statement
    /// (trace events once older than `traceRetention`) and counting the sessions in `metrics`.
    package init(
        repository: any ExpiringRecordStore & LandingLinkStore, interval: Duration, batchSize: Int = 500,
        traceRetention: TimeInterval = WalletServerConfiguration.defaultTraceRetention,
        clock: any CofferClock = SystemClock(), metrics: ServerMetrics? = nil,
        logger: Logger = Logger(label: "coffer.server")
    ) {
        self.repository = repository
        self.interval = interval
        self.batchSize = max(1, batchSize)
        self.traceRetention = traceRetention
        self.clock = clock
        self.metrics = metrics
        self.logger = logger
    }

    /// Sweeps every ``interval`` until graceful shutdown or cancellation.
    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                do {
                    _ = try await purge()
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning(
                        "deleting expired provisioning sessions failed; trying again later",
                        metadata: ["error": "\(LoggedError.description(of: error))"])
                }
            }
        }
    }

    /// Runs `delete` with ``batchSize`` until it deletes fewer rows than that, letting requests waiting for the write
    /// connection go between batches.
    private func deleteInBatches(_ delete: (_ limit: Int) async throws -> Int) async throws {
        while try await delete(batchSize) == batchSize {
            try Task.checkCancellation()
            await Task.yield()
        }
    }

    /// Deletes every session expired now, a batch at a time; returns how many it deleted.
    @discardableResult
    package func purge() async throws -> Int {
        let cutoff = clock.now
        var total = 0
        while true {
            try Task.checkCancellation()
            let deleted = try await repository.deleteExpiredSessions(now: cutoff, limit: batchSize)
            metrics?.sessionsExpired(deleted)
            total += deleted
            guard deleted == batchSize else { break }
            // Let requests waiting for the write connection go between batches.
            await Task.yield()
        }
        if total > 0 {
            logger.debug("deleted expired provisioning sessions", metadata: ["count": "\(total)"])
        }
        // The management API's idempotency keys expire with them, a day after they were used.
        // Expired landing links go too (creating a link also deletes a few).
        try await deleteInBatches { try await repository.deleteExpiredLandingLinks(now: cutoff, limit: $0) }
        let keyCutoff = cutoff.addingTimeInterval(-IdempotencyKey.lifetime)
        try await deleteInBatches { try await repository.deleteExpiredIdempotencyKeys(before: keyCutoff, limit: $0) }
        // And so do share links, and passes' trace events older than the retention.
        try await deleteInBatches { try await repository.deleteExpiredShareLinks(now: cutoff, limit: $0) }
        let traceCutoff = cutoff.addingTimeInterval(-traceRetention)
        try await deleteInBatches { try await repository.deletePassEvents(before: traceCutoff, limit: $0) }
        // Shared rate buckets that are full again are the same as none.
        if let buckets = repository as? any RateBucketStore {
            try await deleteInBatches { try await buckets.deleteFullRateBuckets(now: cutoff, limit: $0) }
        }
        // Webhooks and Google Wallet writes kept as failed go with the trace events that show them, and so do the
        // bulk changes that made those events.
        try await deleteInBatches {
            try await repository.deleteFailedDeliveries(before: traceCutoff, limit: $0)
        }
        try await deleteInBatches {
            try await repository.deleteFinishedPassChangeJobs(before: traceCutoff, limit: $0)
        }
        return total
    }
}
