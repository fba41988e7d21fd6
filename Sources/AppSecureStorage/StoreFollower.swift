import Foundation
import Keychain
import Secrets

/// What keeps a ``SecureStorage`` made over a ``Secrets/SecretsStore`` in step with it: the wrappers' writes, queued
/// and sent to the actor one at a time in the order they were made, and the store's changes, which empty the
/// engine's cache and notify the key's observers.
///
/// A property wrapper's setter cannot wait for the actor, so a write is *pending* from the moment it is made until
/// the store has it: reads of that key answer the pending value meanwhile (a wrapper reads its own writes at once),
/// and a failed write is reported to the error handler, dropped, and announced, so the key reads what is stored.
final class StoreFollower: Sendable {
    /// A write waiting for the store: its number, key and bytes (`nil` deletes).
    private struct Write: Sendable {
        let number: UInt64
        let key: String
        let data: Data?
    }

    private struct Pending {
        var next: UInt64 = 0
        /// Per key, the newest write not yet in the store.
        var writes: [String: Write] = [:]
        /// Writes queued and not finished, all keys.
        var unfinished = 0
        /// Per key, how many changes the store will report for writes of ours: their observers heard them when
        /// the wrapper was set, and do not hear them again.
        var ownChanges: [String: Int] = [:]
        var drained: [CheckedContinuation<Void, Never>] = []
    }

    let store: SecretsStore
    private let pending = Locked(Pending())
    private let queue: AsyncStream<Write>.Continuation
    private let tasks: [Task<Void, Never>]

    /// Starts following `store`: `clearCache` empties the engine's cache, `notify` tells a key's observers,
    /// `report` passes a failed write's error on.
    init(
        store: SecretsStore, clearCache: @escaping @Sendable () -> Void,
        notify: @escaping @Sendable (_ key: String) -> Void,
        report: @escaping @Sendable (_ error: any Error, _ key: String) -> Void
    ) {
        self.store = store
        var made: AsyncStream<Write>.Continuation?
        let writes = AsyncStream<Write>(bufferingPolicy: .unbounded) { made = $0 }
        guard let queue = made else { preconditionFailure("AsyncStream runs its build closure at once") }
        self.queue = queue
        let pending = pending
        let changes = store.changes()
        let writer = Task {
            for await write in writes {
                var failed = false
                var changed = false
                pending.withLock { $0.ownChanges[write.key, default: 0] += 1 }
                do {
                    if let data = write.data {
                        try await store.save(data, account: write.key)
                        changed = true
                    } else {
                        changed = try await store.delete(account: write.key)
                    }
                } catch {
                    failed = true
                    report(error, write.key)
                }
                if !changed {
                    pending.withLock { pending in
                        let own = (pending.ownChanges[write.key] ?? 1) - 1
                        pending.ownChanges[write.key] = own > 0 ? own : nil
                    }
                }
                // The cache may hold what was read before this write; drop it before the pending value goes.
                clearCache()
                let drained = pending.withLock { pending in
                    if pending.writes[write.key]?.number == write.number { pending.writes[write.key] = nil }
                    pending.unfinished -= 1
                    guard pending.unfinished == 0 else { return [CheckedContinuation<Void, Never>]() }
                    defer { pending.drained = [] }
                    return pending.drained
                }
                if failed { notify(write.key) }
                for waiter in drained { waiter.resume() }
            }
        }
        let follower = Task {
            for await change in changes {
                let heard = pending.withLock { pending in
                    if let own = pending.ownChanges[change.account], own > 0 {
                        pending.ownChanges[change.account] = own > 1 ? own - 1 : nil
                        return true
                    }
                    // A key with a write of ours still pending keeps reading that write, which will replace this.
                    return pending.writes[change.account] != nil
                }
                clearCache()
                if !heard { notify(change.account) }
            }
        }
        tasks = [writer, follower]
    }

    deinit {
        // The writer finishes what is queued, then ends; the follower would wait for changes forever.
        queue.finish()
        tasks[1].cancel()
    }

    /// The bytes of `key`'s newest pending write (`.some(nil)`: a pending delete), or `nil` when none is pending.
    func pendingValue(_ key: String) -> Data?? {
        pending.withLock { $0.writes[key].map { $0.data } }
    }

    /// Queues a write of `data` at `key` (`nil` deletes); reads of `key` answer it until the store has it.
    func enqueue(_ data: Data?, _ key: String) {
        pending.withLock { pending in
            pending.next += 1
            let write = Write(number: pending.next, key: key, data: data)
            pending.writes[key] = write
            pending.unfinished += 1
            queue.yield(write)
        }
    }

    /// Returns once every write queued so far is in the store (or has failed and been reported).
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = pending.withLock { pending in
                guard pending.unfinished > 0 else { return true }
                pending.drained.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
