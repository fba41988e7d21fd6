import Secrets

/// The workers of one kind of delivery in the outbox (APNs pushes, webhooks): each kind has its own, so that one
/// kind's slow peers never hold up the other's, and within a lane a slow send holds one worker, never the lane.
struct DeliveryLane<Delivery: Sendable>: Sendable {
    /// Records a delivery's result in the outbox (and wherever else it goes).
    typealias Recording = @Sendable () async -> Void

    /// How many deliveries the lane sends at once.
    let workers: Int
    /// Leases at most `limit` due deliveries.
    let claim: @Sendable (_ limit: Int) async throws -> [Delivery]
    /// Sends one delivery and returns what records its result, which ``run(wakes:wake:claimFailed:)`` runs once the
    /// delivery's worker has moved on: the outbox's bookkeeping, committed in batches, never holds a send back.
    let send: @Sendable (Delivery) async -> Recording

    /// How many deliveries may be claimed, in flight or waiting for their result to be recorded at once: a slow
    /// database makes the lane claim no more, rather than keep results in memory without bound.
    var maximumOutstanding: Int { 16 * workers }
    /// How many claimed deliveries wait for a worker at most: enough that the sends go on through a claim, which
    /// waits for the outbox's other writes.
    var prefetch: Int { 12 * workers }

    /// Sends every delivery due now, claiming more whenever half the workers are free, until a claim finds fewer
    /// than it asked for; waits for the last send and its record, and returns how many it handled.
    ///
    /// - Throws: the claim's error (the deliveries already sent are recorded first).
    func drain() async throws -> Int {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var inFlight = 0
            var handled = 0
            var moreDue = true
            var failure: (any Error)?
            while true {
                if moreDue, failure == nil, !Task.isCancelled, inFlight <= workers / 2 {
                    let wanted = workers - inFlight
                    do {
                        let claimed = try await claim(wanted)
                        for delivery in claimed { group.addTask { await send(delivery)() } }
                        inFlight += claimed.count
                        moreDue = claimed.count == wanted
                    } catch {
                        failure = error
                    }
                }
                guard inFlight > 0 else { break }
                try await group.next()
                inFlight -= 1
                handled += 1
            }
            if let failure { throw failure }
            return handled
        }
    }

    /// What ``run(wakes:wake:claimFailed:)`` shares between its rounds and its workers.
    private struct Pipeline {
        /// Claimed, not yet started.
        var queued: [Delivery] = []
        /// Being sent: at most ``workers``.
        var sending = 0
        /// Claimed and not yet recorded, queued ones included: at most ``maximumOutstanding``.
        var outstanding = 0
        /// Whether a claim is under way.
        var claiming = false
        /// Whether a wake came while a claim was under way: what it rang for may have committed after the claim read
        /// the outbox, so the lane claims again.
        var wokenWhileClaiming = false
    }

    /// Sends deliveries as they fall due, until cancelled. Each of `wakes` starts what was claimed on every free
    /// worker, and claims more in the background once fewer than a third of ``prefetch`` wait, so that sends never
    /// wait for a claim; a finished send frees its worker at once (its result is recorded beside the next sends)
    /// and asks for another round. `claimFailed` hears a claim's error (the next wake tries again).
    func run(
        wakes: AsyncStream<Void>, wake: @escaping @Sendable () -> Void,
        claimFailed: @escaping @Sendable (any Error) -> Void
    ) async {
        let pipeline = Locked(Pipeline())
        await withDiscardingTaskGroup { group in
            for await _ in wakes {
                if Task.isCancelled { break }
                let started = pipeline.withLock { state -> ArraySlice<Delivery> in
                    let count = min(workers - state.sending, state.queued.count)
                    guard count > 0 else { return [] }
                    state.sending += count
                    defer { state.queued.removeFirst(count) }
                    return state.queued.prefix(count)
                }
                for delivery in started {
                    group.addTask {
                        let record = await send(delivery)
                        pipeline.withLock { $0.sending -= 1 }
                        wake()
                        await record()
                        pipeline.withLock { $0.outstanding -= 1 }
                        wake()
                    }
                }
                let wanted = pipeline.withLock { state -> Int in
                    let wanted = min(prefetch - state.queued.count, maximumOutstanding - state.outstanding)
                    if state.claiming { state.wokenWhileClaiming = true }
                    guard !state.claiming, state.queued.count < prefetch / 3, wanted > 0 else { return 0 }
                    state.claiming = true
                    state.outstanding += wanted
                    return wanted
                }
                guard wanted > 0 else { continue }
                group.addTask {
                    let claimed: [Delivery]
                    do {
                        claimed = try await claim(wanted)
                    } catch {
                        if !(error is CancellationError) { claimFailed(error) }
                        claimed = []
                    }
                    let again = pipeline.withLock { state in
                        state.queued += claimed
                        state.outstanding -= wanted - claimed.count
                        state.claiming = false
                        defer { state.wokenWhileClaiming = false }
                        return state.wokenWhileClaiming
                    }
                    if !claimed.isEmpty || again { wake() }
                }
            }
        }
    }
}
