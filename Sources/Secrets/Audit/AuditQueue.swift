import Foundation

/// Events waiting for a sink's thread of their own: what lets a sink take an event on the accessing thread in a
/// fraction of a microsecond and do its slow work (formatting, writing, syncing) elsewhere, without ever dropping one.
///
/// - ``enqueue(_:)`` appends under a lock, and wakes the consumer only when it is asleep on an empty queue; when
///   ``capacity`` events are waiting it waits for the consumer instead (back-pressure, never a drop).
/// - The consumer thread takes everything queued as one batch, after lingering up to ``linger`` once woken so
///   that a batch gathers the events of a burst: one wake-up and one write for many events, not one each (unless a
///   caller is waiting for the events, or half of ``capacity`` is queued). A batch that fails stays queued, ahead of
///   newer events, and is retried after ``retryDelay``.
/// - The consumer runs at background priority: on cores the application leaves idle, yielding to it elsewhere (and
///   when it falls too far behind, back-pressure makes the accessing threads wait for it rather than drop).
/// - ``flush()`` waits until everything queued before it has been handled; ``close()`` handles what is left, then
///   stops the thread.
package final class AuditQueue: @unchecked Sendable {
    // Safety: every mutable property is read and written only while `condition` is locked; `handle` runs on the
    // consumer thread alone.
    private let condition = NSCondition()
    private var queue: [SecretsAuditEvent] = []
    private var spare: [SecretsAuditEvent] = []
    private var enqueued: UInt64 = 0
    private var attempted: UInt64 = 0
    private var handled: UInt64 = 0
    private var attempts: UInt64 = 0
    private var failure: SecretsAuditError?
    private var consumerAsleep = false
    private var consumerLingering = false
    private var progressWaiters = 0
    private var closing = false
    private var finished = false

    /// How many events may wait before ``enqueue(_:)`` does.
    let capacity: Int
    /// How long the consumer waits before retrying a failed batch.
    let retryDelay: Duration
    /// How long the consumer, woken by a first event, waits for more before taking the batch.
    let linger: Duration
    private let handle: ([SecretsAuditEvent]) -> SecretsAuditError?
    private let idle: () -> Duration?

    /// Starts a consumer thread called `name` that passes each batch to `handle`, which returns the error that kept
    /// it from being handled, or `nil`. After each batch, and when the time it last returned has passed with no
    /// event, the thread calls `idle`, which returns how long to wait before calling it again (`nil`: not until after
    /// the next batch): for work that follows a batch later, such as an `fsync`.
    package init(
        name: String, capacity: Int, linger: Duration = .milliseconds(2), retryDelay: Duration = .seconds(1),
        handle: @escaping ([SecretsAuditEvent]) -> SecretsAuditError?, idle: @escaping () -> Duration? = { nil }
    ) {
        precondition(capacity >= 1, "capacity must be at least 1")
        self.capacity = capacity
        self.linger = linger
        self.retryDelay = retryDelay
        self.handle = handle
        self.idle = idle
        queue.reserveCapacity(min(capacity, 1024))
        let thread = Thread { [self] in
            BackgroundPriority.lowerCurrentThread()
            run()
        }
        thread.name = name
        thread.start()
    }

    /// How many events are waiting.
    var count: Int { condition.withLock { queue.count } }

    /// Queues `event`: its ticket, or `nil` when the queue is closed (the event is not kept).
    package func enqueue(_ event: SecretsAuditEvent) -> UInt64? {
        condition.withLock {
            while queue.count >= capacity, !closing { waitForProgress() }
            guard !closing else { return nil }
            queue.append(event)
            enqueued += 1
            if consumerAsleep || (consumerLingering && queue.count >= capacity / 2) { condition.broadcast() }
            return enqueued
        }
    }

    /// Returns once the event with `ticket` has been handled, or its batch failed.
    func waitUntilAttempted(_ ticket: UInt64) {
        condition.withLock {
            while attempted < ticket, !finished { waitForProgress() }
        }
    }

    /// Returns once every event queued before the call has been handled.
    ///
    /// - Throws: the error of a batch that failed meanwhile (its events stay queued).
    package func flush() throws(SecretsAuditError) {
        let outcome: SecretsAuditError? = condition.withLock {
            let target = enqueued
            let attemptsBefore = attempts
            while handled < target, !finished {
                if failure != nil, attempts > attemptsBefore { break }
                waitForProgress()
            }
            return handled < target ? (failure ?? .closed) : nil
        }
        if let outcome { throw outcome }
    }

    /// Handles what is queued (one more attempt if a batch is failing), then stops the consumer. Later calls do
    /// nothing.
    ///
    /// - Returns: the error that kept the last events from being handled, or `nil`.
    @discardableResult
    package func close() -> SecretsAuditError? {
        condition.withLock {
            closing = true
            condition.broadcast()
            while !finished { waitForProgress() }
            return queue.isEmpty ? nil : (failure ?? .closed)
        }
    }

    /// Waits, counted as a waiter the consumer must wake after each batch. Call it with the lock held.
    private func waitForProgress() {
        if consumerLingering { condition.broadcast() }
        progressWaiters += 1
        condition.wait()
        progressWaiters -= 1
    }

    private func run() {
        var idleDeadline: Date?
        while true {
            condition.lock()
            var woken = false
            while queue.isEmpty, !closing {
                consumerAsleep = true
                if let deadline = idleDeadline {
                    let signaled = condition.wait(until: deadline)
                    consumerAsleep = false
                    if !signaled, queue.isEmpty, !closing {
                        condition.unlock()
                        idleDeadline = idle().map { Date(timeIntervalSinceNow: $0.timeInterval) }
                        condition.lock()
                        continue
                    }
                } else {
                    condition.wait()
                    consumerAsleep = false
                }
                woken = true
            }
            if woken, linger > .zero, !closing, progressWaiters == 0, queue.count < capacity / 2 {
                consumerLingering = true
                _ = condition.wait(until: Date(timeIntervalSinceNow: linger.timeInterval))
                consumerLingering = false
            }
            if queue.isEmpty {
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            var batch = spare
            swap(&batch, &queue)
            condition.unlock()

            let error = handle(batch)
            if error == nil {
                idleDeadline = idle().map { Date(timeIntervalSinceNow: $0.timeInterval) }
            }

            condition.lock()
            attempts += 1
            attempted = max(attempted, handled + UInt64(batch.count))
            if let error {
                failure = error
                queue.insert(contentsOf: batch, at: 0)
                if closing {
                    finished = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                if progressWaiters > 0 { condition.broadcast() }
                _ = condition.wait(until: Date(timeIntervalSinceNow: retryDelay.timeInterval))
            } else {
                failure = nil
                handled += UInt64(batch.count)
                batch.removeAll(keepingCapacity: true)
                spare = batch
                if progressWaiters > 0 { condition.broadcast() }
            }
            condition.unlock()
        }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's time intervals count.
    fileprivate var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
