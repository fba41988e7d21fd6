import Foundation
import Logging
import Secrets
import WalletPasses

/// Bulk changes of a client's passes (`POST /api/v2/passes/changes`, `coffer admin pass update --where|--csv`): a
/// job is made at once with its items, and runners on every replica (``PassChangeJobRunner``) do it in batches, each
/// in the one transaction that changes its passes, queues their pushes, Google Wallet writes and webhooks, and marks
/// its items done, so that a replica killed mid-batch leaves the batch to another, which does it once.
///
/// Jobs take turns batch by batch (the one worked on longest ago goes next), so one client's long job never holds
/// up another's; a single change (`PATCH`) waits at most for one batch's writes.
package struct PassChangeJobs: Sendable {
    /// The storage.
    package let store: any PassChangeJobStore & PassTypeStore
    /// Rung after a batch queued pushes, Google Wallet writes or webhooks (the outbox's doorbell).
    package let queued: @Sendable () -> Void
    /// Rung after a job is made (the runners' doorbell).
    package let submitted: @Sendable () -> Void
    /// How many items a runner takes at once: one transaction's worth.
    package let batchSize: Int
    private let clock: any CofferClock
    private let logger: Logger

    /// How many items a runner takes at once unless told otherwise.
    package static let defaultBatchSize = 200
    /// How long a runner holds its items: far longer than a batch takes, and how long a killed replica's items wait.
    package static let lease: TimeInterval = 30
    /// How many failures a job's view lists.
    package static let listedFailures = 100

    /// Creates the service.
    package init(
        store: any PassChangeJobStore & PassTypeStore, queued: @escaping @Sendable () -> Void = {},
        submitted: @escaping @Sendable () -> Void = {}, batchSize: Int = defaultBatchSize,
        clock: any CofferClock = SystemClock(), logger: Logger = Logger(label: "coffer.bulk-changes")
    ) {
        self.store = store
        self.batchSize = max(1, batchSize)
        self.queued = queued
        self.submitted = submitted
        self.clock = clock
        self.logger = logger
    }

    /// Makes the client's job of `request` and answers it (202), or, for a retry with the same idempotency key,
    /// the first answer.
    package func submit(_ request: PassChangeJobRequest, clientID: UUID, idempotencyKey: IdempotencyKey?)
        async throws -> StoredResponse
    {
        if case .match(let match, _) = request.work, let passTypeID = match.passTypeID {
            _ = try await store.sharedType(passTypeID, kind: .pass, clientID: clientID, parameter: "match.pass_type_id")
        }
        let job = NewPassChangeJob(clientID: clientID, work: request.work)
        let stored = try await store.createPassChangeJob(
            job, claim: idempotencyKey.map { IdempotencyClaim(key: $0, requestHash: request.fingerprint) },
            now: clock.now, encode: { try $0.encoded() })
        if !stored.replayed {
            logger.info("bulk change made", metadata: ["job": "\(job.id)", "client": "\(clientID)"])
            submitted()
        }
        return stored
    }

    /// The client's job `id`.
    package func job(id: UUID, clientID: UUID) async throws -> PassChangeJob {
        guard let job = try await store.passChangeJob(id: id, clientID: clientID, failures: Self.listedFailures) else {
            throw PassManagementFailure.notFound("a job \(id)")
        }
        return job
    }

    /// How many times an item is claimed before it is failed unchanged: a pass whose batch keeps failing (the
    /// server's log says why) must not hold its job, and the client's slot, for ever. From its second claim an item is
    /// claimed alone, so that one such pass fails no other.
    package static let maximumAttempts = 3

    /// How long a batch computes before it lets other work on this replica's threads go on.
    static let computeSlice = Duration.milliseconds(5)

    /// Does one batch of the job whose turn it is (only of `jobID`, when given); `nil` when no job has items free.
    /// The items' lease is renewed while the batch is worked out, so that a slow batch is never taken from under it.
    package func runBatch(jobID: UUID? = nil) async throws -> PassChangeBatchResult? {
        guard
            var batch = try await store.claimPassChangeBatch(
                now: clock.now, limit: batchSize, leaseFor: Self.lease, jobID: jobID)
        else { return nil }
        var changes = ChangeCache()
        var outcomes: [PassChangeOutcome] = []
        var renewed = ContinuousClock.now
        var yielded = ContinuousClock.now
        for item in batch.items {
            if ContinuousClock.now - renewed > .seconds(Self.lease / 3) {
                guard
                    let until = try await store.renewPassChangeLease(
                        batch, until: clock.now.addingTimeInterval(Self.lease))
                else {
                    return PassChangeBatchResult(committed: 0, pushes: 0, queuedDeliveries: false, finishedJob: false)
                }
                batch.leasedUntil = until
                renewed = .now
            }
            guard item.attempts <= Self.maximumAttempts else {
                outcomes.append(.failed("the server could not change this pass in \(Self.maximumAttempts) attempts"))
                continue
            }
            guard let pass = item.pass else {
                outcomes.append(.failed("no such tag with a pass"))
                continue
            }
            outcomes.append(Self.outcome(of: item, content: pass.content, match: batch.match, changes: &changes))
            // Lets requests on this replica's threads go on every few milliseconds: a yield after each pass puts the
            // batch behind every request waiting, each time.
            if ContinuousClock.now - yielded > Self.computeSlice {
                await Task.yield()
                yielded = .now
            }
        }
        let match = batch.match
        let result = try await store.commitPassChangeBatch(batch, outcomes: outcomes, now: clock.now) { item, content in
            var changes = ChangeCache()
            return Self.outcome(of: item, content: content, match: match, changes: &changes)
        }
        if result.pushes > 0 || result.queuedDeliveries { queued() }
        if result.finishedJob { logger.info("bulk change finished", metadata: ["job": "\(batch.jobID)"]) }
        return result
    }

    /// What `item`'s change makes of the pass `content`: skipped when it does not match `match`, failed (with the
    /// reason the `PATCH` of it would answer) when the pass cannot take it.
    static func outcome(
        of item: PassChangeBatch.Item, content: Data, match: PassChangeMatch?, changes: inout ChangeCache
    ) -> PassChangeOutcome {
        do {
            return try PassManagement.refusingInvalid {
                let change = try changes.change(item.change)
                let package: PassPackage
                do {
                    package = try PassPackage(archive: content)
                } catch {
                    throw WalletServerError.corruptRecord("the pass's stored content")
                }
                if let match, !match.matches(try package.pass) { return .skipped }
                let (rewrite, details) = try PassUpdater.applying(change, to: package)
                return .changed(rewrite, details: details)
            }
        } catch let failure as PassManagementFailure {
            return .failed(failure.description)
        } catch {
            return .failed(LoggedError.description(of: error))
        }
    }

    /// The changes of one batch, each read once: a match job's items share one.
    struct ChangeCache {
        private var changes: [Data: PassChange] = [:]

        /// The change the `PATCH` body `body` asks for.
        mutating func change(_ body: Data) throws -> PassChange {
            if let change = changes[body] { return change }
            let change = try JSONDecoder().decode(PassChangeRequest.self, from: body).change
            changes[body] = change
            return change
        }
    }
}
