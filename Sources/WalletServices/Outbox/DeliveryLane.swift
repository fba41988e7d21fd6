import Secrets

/// The workers of one kind of delivery in the outbox (APNs pushes, webhooks): each kind has its own, so that one
/// kind's slow peers never hold up the other's, and within a lane a slow send holds one worker, never the lane.
struct DeliveryLane<Delivery: Sendable>: Sendable {
    /// How many deliveries the lane sends at once.
    let workers: Int
    /// Leases at most `limit` due deliveries.
    let claim: @Sendable (_ limit: Int) async throws -> [Delivery]
    /// Sends one delivery and records its result.
    let send: @Sendable (Delivery) async -> Void

    /// Sends every delivery due now, claiming more whenever half the workers are free, until a claim finds fewer
    /// than it asked for; waits for the last send, and returns how many it handled.
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
                        for delivery in claimed { group.addTask { await send(delivery) } }
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

    /// Sends deliveries as they fall due, until cancelled: on each of `wakes` it claims as many as it has free
    /// workers and starts each at once, and a finished send frees its worker and asks for another round, so a
    /// delivery never waits for an unrelated one in flight. While a backlog lasts it claims once half the workers
    /// are free (fewer, larger claims); once a claim has come back short, at once. `claimFailed` hears a claim's
    /// error (the next wake tries again).
    func run(wakes: AsyncStream<Void>, wake: @escaping @Sendable () -> Void, claimFailed: (any Error) -> Void)
        async
    {
        let inFlight = Locked(0)
        var backlog = false
        await withDiscardingTaskGroup { group in
            for await _ in wakes {
                if Task.isCancelled { break }
                let free = workers - inFlight.withLock { $0 }
                guard free > 0, !backlog || free * 2 >= workers else { continue }
                let claimed: [Delivery]
                do {
                    claimed = try await claim(free)
                } catch is CancellationError {
                    break
                } catch {
                    claimFailed(error)
                    continue
                }
                inFlight.withLock { $0 += claimed.count }
                for delivery in claimed {
                    group.addTask {
                        await send(delivery)
                        inFlight.withLock { $0 -= 1 }
                        wake()
                    }
                }
                backlog = claimed.count == free
                if backlog { wake() }
            }
        }
    }
}
