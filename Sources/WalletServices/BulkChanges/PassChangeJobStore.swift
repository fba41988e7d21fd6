import Foundation
import WalletDocuments

/// Where bulk changes are kept, and the transaction that does a batch of one (``SQLWalletRepository`` in
/// WalletStore).
package protocol PassChangeJobStore: Sendable {
    /// Makes the job and its items in one transaction, claiming `claim` first: a retry of the same request answers
    /// the first answer (its status 202) again; the same key with another request is
    /// ``PassManagementFailure/idempotencyKeyReused``.
    ///
    /// - Throws: ``PassManagementFailure/limitReached(_:)`` when the client has ``NewPassChangeJob/maximumUnfinished``
    ///   jobs unfinished; ``PassManagementFailure/invalidRequest(_:)`` when a match finds more than
    ///   ``PassChangeJobRequest/maximumItems`` passes.
    func createPassChangeJob(
        _ job: NewPassChangeJob, claim: IdempotencyClaim?, now: Date,
        encode: @escaping @Sendable (PassChangeJob) throws -> Data
    ) async throws -> StoredResponse

    /// How many of the client's jobs are unfinished.
    func unfinishedPassChangeJobs(clientID: UUID) async throws -> Int

    /// The client's job `id` with its first `failures` failures, or `nil` when it has none with that identifier.
    func passChangeJob(id: UUID, clientID: UUID, failures: Int) async throws -> PassChangeJob?

    /// Leases up to `limit` pending items (one, when the first has been claimed before) of the unfinished job whose
    /// turn it is (the one worked on longest ago; only `jobID`, when given), counting an attempt of each, with their
    /// passes as stored; `nil` when no job has items free.
    func claimPassChangeBatch(now: Date, limit: Int, leaseFor: TimeInterval, jobID: UUID?) async throws
        -> PassChangeBatch?

    /// Moves the lease of the batch's items to `until`, if the batch still holds them all; the new lease, or `nil`
    /// when another runner took them.
    func renewPassChangeLease(_ batch: PassChangeBatch, until: Date) async throws -> Date?

    /// In one transaction: for each item of `batch` this claim still holds, stores its outcome (redoing a change
    /// with `redo` on the pass as stored when the pass changed since it was claimed, or an earlier item of the batch
    /// changed it), gives each changed pass the next update tag, queues its pushes, Google Wallet write and trace
    /// events with their webhooks, and counts the items in the job; finishes the job when no item is left.
    func commitPassChangeBatch(
        _ batch: PassChangeBatch, outcomes: [PassChangeOutcome], now: Date,
        redo: @escaping @Sendable (PassChangeBatch.Item, _ content: Data) -> PassChangeOutcome
    ) async throws -> PassChangeBatchResult
}

/// A job to make: its client and what it changes.
package struct NewPassChangeJob: Sendable {
    /// The job's identifier.
    package var id: UUID
    /// The client whose passes it changes.
    package var clientID: UUID
    /// What it changes.
    package var work: PassChangeJobRequest.Work

    /// How many jobs of one client may be unfinished at once.
    package static let maximumUnfinished = 2

    /// Creates a job to make.
    package init(id: UUID = UUID(), clientID: UUID, work: PassChangeJobRequest.Work) {
        (self.id, self.clientID, self.work) = (id, clientID, work)
    }
}

/// Items of one job that a runner leased, with their passes.
package struct PassChangeBatch: Sendable {
    /// One item: a pass to change.
    package struct Item: Sendable {
        /// The item's place in its job.
        package var seq: Int64
        /// What names the pass in a failure: the list's tag (`reference_id A-12`), or the pass's serial number.
        package var target: String
        /// The pass, if it exists.
        package var pass: ClaimedPass?
        /// The change (a `PATCH` body): the line's, or the job's.
        package var change: Data
        /// How many times it has been claimed, this claim included.
        package var attempts: Int

        /// Creates an item.
        package init(seq: Int64, target: String, pass: ClaimedPass?, change: Data, attempts: Int = 1) {
            (self.seq, self.target, self.pass, self.change, self.attempts) = (seq, target, pass, change, attempts)
        }
    }

    /// A pass as it was stored when the batch was claimed.
    package struct ClaimedPass: Sendable {
        /// The pass's identifier.
        package var id: UUID
        /// Its archived content.
        package var content: Data
        /// Its update tag: a commit redoes the change if the pass has another one by then.
        package var updateTag: Int64

        /// Creates a claimed pass.
        package init(id: UUID, content: Data, updateTag: Int64) {
            (self.id, self.content, self.updateTag) = (id, content, updateTag)
        }
    }

    /// The job.
    package var jobID: UUID
    /// The job's client.
    package var clientID: UUID
    /// The job's match, for a match job: an item whose pass does not match is skipped.
    package var match: PassChangeMatch?
    /// When the lease on the items ends: a commit stores only the items it still holds.
    package var leasedUntil: Date
    /// The items, in order.
    package var items: [Item]

    /// Creates a batch.
    package init(jobID: UUID, clientID: UUID, match: PassChangeMatch?, leasedUntil: Date, items: [Item]) {
        self.jobID = jobID
        self.clientID = clientID
        self.match = match
        self.leasedUntil = leasedUntil
        self.items = items
    }
}

/// What one item of a batch came to.
package enum PassChangeOutcome: Sendable {
    /// The pass takes the change: its new content, and what changed for its trace.
    case changed(PassRewrite, details: [String: JSONValue])
    /// The pass does not match.
    case skipped
    /// The item failed: no such tag, or a change its pass cannot take.
    case failed(String)
}

/// What a batch's commit did.
package struct PassChangeBatchResult: Hashable, Sendable {
    /// The items stored (those the claim still held).
    package var committed: Int
    /// The pushes queued.
    package var pushes: Int
    /// Whether Google Wallet writes or webhooks were queued.
    package var queuedDeliveries: Bool
    /// Whether the batch finished its job.
    package var finishedJob: Bool

    /// Creates a result.
    package init(committed: Int, pushes: Int, queuedDeliveries: Bool, finishedJob: Bool) {
        (self.committed, self.pushes, self.queuedDeliveries, self.finishedJob) = (
            committed, pushes, queuedDeliveries, finishedJob
        )
    }
}
