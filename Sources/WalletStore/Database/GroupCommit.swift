import Secrets
import WalletDocuments
import WalletServices

/// Commits the writes of concurrent callers together: one transaction and one sync for every write that arrived
/// while the previous batch was being committed, instead of one each.
///
/// A caller of ``submit(_:)`` is answered only once the batch holding its entry has committed, so group commit keeps
/// durability (a success means the write is on disk) while the database syncs far less often under load. When a
/// batch fails, each of its entries is committed again alone, so one bad entry fails only its own caller.
///
/// The batches run one after another on a task of their own, started when the first entry arrives and ended when
/// nothing is left to commit.
final class GroupCommit<Entry: Sendable, Outcome: Sendable>: Sendable {
    /// Commits a batch in one transaction and returns one outcome per entry, in order.
    typealias Committer = @Sendable ([Entry]) async throws -> [Outcome]

    private struct Waiting {
        let entry: Entry
        let continuation: CheckedContinuation<Outcome, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        var isCommitting = false
    }

    private let state = Locked(State())
    private let maximumBatchSize: Int
    private let commit: Committer

    /// A batcher that commits at most `maximumBatchSize` entries at a time with `commit`.
    init(maximumBatchSize: Int = 64, commit: @escaping Committer) {
        precondition(maximumBatchSize > 0, "a batch holds at least one entry")
        self.maximumBatchSize = maximumBatchSize
        self.commit = commit
    }

    /// Commits `entry` with whatever else is waiting, and returns its outcome once it is committed.
    ///
    /// Cancelling the caller does not withdraw the entry: once submitted, it is committed (or fails) like the
    /// others, and the caller waits for that answer.
    func submit(_ entry: Entry) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            let startsCommitting = state.withLock { state in
                state.waiting.append(Waiting(entry: entry, continuation: continuation))
                guard !state.isCommitting else { return false }
                state.isCommitting = true
                return true
            }
            if startsCommitting {
                Task { await self.commitUntilIdle() }
            }
        }
    }

    private func commitUntilIdle() async {
        while let batch = nextBatch() {
            await commitAnswering(batch)
        }
    }

    /// The entries to commit next, oldest first, or `nil` (and no longer committing) when none are waiting.
    private func nextBatch() -> [Waiting]? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.isCommitting = false
                return nil
            }
            let count = min(state.waiting.count, maximumBatchSize)
            let batch = Array(state.waiting.prefix(count))
            state.waiting.removeFirst(count)
            return batch
        }
    }

    private func commitAnswering(_ batch: [Waiting]) async {
        do {
            let outcomes = try await commit(batch.map(\.entry))
            precondition(outcomes.count == batch.count, "a committer returns one outcome per entry")
            for (waiting, outcome) in zip(batch, outcomes) { waiting.continuation.resume(returning: outcome) }
        } catch  where batch.count > 1 {
            // Find whose entry failed: each alone, so the others still commit.
            for waiting in batch { await commitAnswering([waiting]) }
        } catch {
            batch[0].continuation.resume(throwing: error)
        }
    }
}
