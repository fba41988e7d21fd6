import Foundation
import Secrets

/// Events waiting for a sink's slow work (formatting, writing, syncing), which the process's one ``AuditWorker``
/// thread does: what lets a sink take an event on the accessing thread in a fraction of a microsecond without ever
/// dropping one.
///
/// - ``enqueue(_:)`` appends under the worker's lock and wakes the worker only when it is asleep (or lingering, when
///   this queue must not wait: it is half full, lingers for no time, or someone waits for it); when ``capacity``
///   events are waiting it waits for the worker instead (back-pressure, never a drop).
/// - The worker takes everything queued as one batch and passes it to the queue's handler. A batch that fails stays
///   queued, ahead of newer events, and is retried after ``retryDelay``.
/// - ``flush()`` waits until everything queued before it has been handled; ``close()`` handles what is left, then
///   takes the queue off the worker.
package final class AuditQueue: @unchecked Sendable {
    // Safety: every mutable property is read and written only while the worker's `condition` is locked; `handle`
    // and `idle` run on the worker's thread alone.
    private let worker = AuditWorker.shared
    private var events: [SecretsAuditEvent] = []
    private var spare: [SecretsAuditEvent] = []
    private var enqueued: UInt64 = 0
    private var attempted: UInt64 = 0
    private var handled: UInt64 = 0
    private var attempts: UInt64 = 0
    private var failure: SecretsAuditError?
    private var retryAt: Date?
    private var idleAt: Date?
    private var batchInFlight = false
    private var progressWaiters = 0
    private var closing = false
    private var gaveUp = false
    private var finished = false

    /// How long a queue lingers unless told otherwise: a batch then gathers what 100 ms of accesses record. Shorter
    /// batches cost more per event, since each finds the thread's code and data cold and pays its system calls
    /// (`Benchmarks/RESULTS.md`).
    static let defaultLinger = Duration.milliseconds(100)

    /// How many events may wait before ``enqueue(_:)`` does.
    let capacity: Int
    /// How long the worker waits before retrying a failed batch.
    let retryDelay: Duration
    /// How long the worker, woken by a first event, waits for more before taking the batch.
    let linger: Duration
    /// What the worker does with each batch: returns the error that kept it from being handled, or `nil`.
    let handle: ([SecretsAuditEvent]) -> SecretsAuditError?
    /// What the worker calls after each batch, and when the time it last returned has passed: returns how long to
    /// wait before calling it again (`nil`: not until after the next batch).
    let idle: () -> Duration?

    /// Creates a queue whose batches the worker passes to `handle`, which returns the error that kept a batch from
    /// being handled, or `nil`. After each batch, and when the time it last returned has passed with no event, the
    /// worker calls `idle`, which returns how long to wait before calling it again (`nil`: not until after the next
    /// batch): for work that follows a batch later, such as an `fsync`.
    package init(
        capacity: Int, linger: Duration = defaultLinger, retryDelay: Duration = .seconds(1),
        handle: @escaping ([SecretsAuditEvent]) -> SecretsAuditError?, idle: @escaping () -> Duration? = { nil }
    ) {
        precondition(capacity >= 1, "capacity must be at least 1")
        self.capacity = capacity
        self.linger = linger
        self.retryDelay = retryDelay
        self.handle = handle
        self.idle = idle
        events.reserveCapacity(min(capacity, 1024))
        worker.condition.withLock { worker.register(self) }
    }

    /// How many events are waiting.
    var count: Int { worker.condition.withLock { events.count } }

    /// Queues `event`: its ticket, or `nil` when the queue is closed (the event is not kept).
    package func enqueue(_ event: SecretsAuditEvent) -> UInt64? {
        worker.condition.withLock {
            while events.count >= capacity, !closing, waitForProgress() {}
            guard !closing else { return nil }
            events.append(event)
            enqueued += 1
            worker.wake(urgent: mustNotWait)
            return enqueued
        }
    }

    /// Returns once the event with `ticket` has been handled, or its batch failed.
    func waitUntilAttempted(_ ticket: UInt64) {
        worker.condition.withLock {
            while attempted < ticket, !finished, waitForProgress() {}
        }
    }

    /// Returns once every event queued before the call has been handled.
    ///
    /// - Throws: the error of a batch that failed meanwhile (its events stay queued).
    package func flush() throws(SecretsAuditError) {
        let outcome: SecretsAuditError? = worker.condition.withLock {
            let target = enqueued
            let attemptsBefore = attempts
            while handled < target, !finished {
                if failure != nil, attempts > attemptsBefore { break }
                guard waitForProgress() else { break }
            }
            return handled < target ? (failure ?? .closed) : nil
        }
        if let outcome { throw outcome }
    }

    /// Handles what is queued (one more attempt at once if a batch is failing), then takes the queue off the worker.
    /// Later calls do nothing.
    ///
    /// - Returns: the error that kept the last events from being handled, or `nil`.
    @discardableResult
    package func close() -> SecretsAuditError? {
        worker.condition.withLock {
            if !closing {
                closing = true
                retryAt = nil
            }
            while !finished, waitForProgress() {}
            return events.isEmpty ? nil : (failure ?? .closed)
        }
    }

    /// Waits, counted as a waiter the worker must not keep waiting; on the worker's own thread, which nothing else
    /// would wake, returns at once (`enqueue` then goes past ``capacity``, and a wait for events returns before they
    /// are handled) rather than wait for itself. Call it with the lock held, in a loop that checks what it waits for.
    private func waitForProgress() -> Bool {
        guard !worker.isCurrentThread else { return false }
        progressWaiters += 1
        worker.wake(urgent: true)
        worker.condition.wait()
        progressWaiters -= 1
        return true
    }
}

extension AuditQueue {
    // The worker's side: each member is called by the worker, with the lock held.

    /// Whether someone is waiting for this queue's events to be handled.
    var hasWaiters: Bool { progressWaiters > 0 }

    /// Whether the worker must take this queue's events without lingering.
    var mustNotWait: Bool { hasWaiters || closing || linger == .zero || events.count >= capacity / 2 }

    /// Whether the queue has events to pass to its handler now.
    func hasBatchReady(at now: Date) -> Bool {
        !events.isEmpty && !batchInFlight && !finished && !gaveUp && (retryAt.map { $0 <= now } ?? true)
    }

    /// Whether the idle callback is due.
    func isIdleDue(at now: Date) -> Bool {
        !finished && !batchInFlight && (idleAt.map { $0 <= now } ?? false)
    }

    /// When the worker must look at this queue again without being woken: a retry or an idle callback.
    var nextDeadline: Date? {
        guard !finished else { return nil }
        return [events.isEmpty ? nil : retryAt, idleAt].compactMap { $0 }.min()
    }

    /// Takes every queued event as a batch.
    func takeBatch() -> [SecretsAuditEvent] {
        var batch = spare
        swap(&batch, &events)
        batchInFlight = true
        return batch
    }

    /// Records how the handler did with `batch`: handled, or failed and queued again ahead of newer events.
    func finishBatch(_ batch: [SecretsAuditEvent], error: SecretsAuditError?, at now: Date) {
        batchInFlight = false
        attempts += 1
        attempted = max(attempted, handled + UInt64(batch.count))
        if let error {
            failure = error
            events.insert(contentsOf: batch, at: 0)
            if closing { gaveUp = true } else { retryAt = now.addingTimeInterval(retryDelay.timeInterval) }
        } else {
            failure = nil
            retryAt = nil
            handled += UInt64(batch.count)
            var emptied = batch
            emptied.removeAll(keepingCapacity: true)
            spare = emptied
            idleAt = now
        }
    }

    /// Records when the idle callback wants to be called again.
    func finishIdle(_ next: Duration?, at now: Date) {
        idleAt = next.map { now.addingTimeInterval($0.timeInterval) }
    }

    /// Marks the queue finished when it is closing and has nothing left to try: returns whether it did.
    func finishIfClosed() -> Bool {
        guard closing, !finished, !batchInFlight, events.isEmpty || gaveUp else { return false }
        finished = true
        return true
    }
}
