import Foundation
import Secrets

/// The one thread that does the slow work of every ``AuditQueue`` in the process: formatting, writing, syncing.
///
/// One thread for all the sinks, rather than one each, because what a sink's thread costs the accessing threads is
/// less its work than its wake-ups and context switches on the cores they share: with log, file and metrics sinks,
/// three threads woke for every burst of accesses where this one wakes once. The sinks' handlers run one after the
/// other on it, so a handler that blocks (an `fsync`) delays the others' events, never an access (unless a queue is
/// full).
///
/// The thread starts with the first queue, runs in the idle scheduling class (``BackgroundPriority``), and sleeps
/// while no queue has events or a timer due. Woken from sleep by an event, it lingers for the queues' ``AuditQueue/
/// linger`` so that a batch gathers a burst's events, unless a caller is waiting for events, a queue is half full,
/// is closing or lingers for no time.
final class AuditWorker: @unchecked Sendable {
    // Safety: every mutable property, here and in each queue, is read and written only while `condition` is locked.

    /// The worker of every queue.
    static let shared = AuditWorker()

    /// The lock of the worker's and every queue's state, and what both wait on.
    let condition = NSCondition()
    private var queues: [AuditQueue] = []
    private var thread: Thread?
    private(set) var asleep = false
    private(set) var lingering = false

    /// Adds `queue` to the queues the thread serves, starting the thread if this is the first. Call it with the lock
    /// held.
    func register(_ queue: AuditQueue) {
        queues.append(queue)
        guard thread == nil else { return }
        let thread = Thread { [self] in
            BackgroundPriority.lowerCurrentThread()
            run()
        }
        self.thread = thread
        thread.start()
    }

    /// Whether the caller is the worker's thread, which must never wait for itself: a handler that accesses an
    /// audited store (a file sink whose key store is audited) records events from it. Call it with the lock held.
    var isCurrentThread: Bool { thread.map { Thread.current === $0 } ?? false }

    /// Wakes the thread if it is asleep, or lingering while `urgent` (a queue must not wait). Call it with the lock
    /// held.
    func wake(urgent: Bool) {
        if asleep || (lingering && urgent) { condition.broadcast() }
    }

    private func run() {
        condition.lock()
        // Named only now: Foundation on Linux names a thread only once `start()` has recorded it, which the new thread
        // can outrun; `register(_:)` starts it under the lock just taken.
        Thread.current.name = SecretsAudit.threadName
        var wokenFromSleep = false
        while true {
            finishClosedQueues()
            let now = Date()
            let ready = queues.filter { $0.hasBatchReady(at: now) }
            let idle = queues.filter { $0.isIdleDue(at: now) }
            if ready.isEmpty, idle.isEmpty {
                asleep = true
                if let deadline = queues.compactMap(\.nextDeadline).min() {
                    _ = condition.wait(until: deadline)
                } else {
                    condition.wait()
                }
                asleep = false
                wokenFromSleep = true
                continue
            }
            if wokenFromSleep, let linger = Self.linger(of: ready) {
                wokenFromSleep = false
                lingering = true
                _ = condition.wait(until: now.addingTimeInterval(linger.timeInterval))
                lingering = false
                continue
            }
            wokenFromSleep = false
            // The queues someone is waiting for go first.
            let batches = ready.sorted { $0.hasWaiters && !$1.hasWaiters }.map { ($0, $0.takeBatch()) }
            condition.unlock()
            let outcomes = batches.map { queue, batch in (queue, batch, queue.handle(batch)) }
            let idleResults = idle.map { ($0, $0.idle()) }
            condition.lock()
            let after = Date()
            for (queue, batch, error) in outcomes { queue.finishBatch(batch, error: error, at: after) }
            for (queue, next) in idleResults { queue.finishIdle(next, at: after) }
            condition.broadcast()
        }
    }

    /// Marks the closing queues that have nothing left to try as finished, and stops serving them.
    private func finishClosedQueues() {
        let served = queues.count
        queues.removeAll { $0.finishIfClosed() }
        if queues.count < served { condition.broadcast() }
    }

    /// How long to gather events before taking `ready`'s batches: `nil` when one of them must not wait.
    private static func linger(of ready: [AuditQueue]) -> Duration? {
        guard !ready.contains(where: \.mustNotWait) else { return nil }
        return ready.map(\.linger).min()
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's time intervals count.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
