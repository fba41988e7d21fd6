import Foundation
import Secrets
import Testing

@testable import WalletServices

@Suite("Delivery lanes: sends never wait for the outbox's bookkeeping, which stays bounded")
struct DeliveryLaneTests {
    /// Deliveries 0..<count to claim, what was sent and recorded, and a gate that holds every recording back.
    final class Outbox: Sendable {
        let due: Locked<[Int]>
        let sent = Locked<[Int]>([])
        let recorded = Locked<[Int]>([])
        let recordingsHeld = Locked(true)

        init(count: Int) { due = Locked(Array(0..<count)) }

        func lane(workers: Int) -> DeliveryLane<Int> {
            DeliveryLane(
                workers: workers,
                claim: { limit in
                    self.due.withLock { due in
                        defer { due.removeFirst(min(limit, due.count)) }
                        return Array(due.prefix(limit))
                    }
                },
                send: { delivery in
                    self.sent.withLock { $0.append(delivery) }
                    return {
                        while self.recordingsHeld.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
                        self.recorded.withLock { $0.append(delivery) }
                    }
                })
        }

        /// Waits (polling, up to 10 s) until `condition` holds.
        func wait(until condition: () -> Bool) async throws {
            for _ in 0..<10_000 where !condition() { try await Task.sleep(for: .milliseconds(1)) }
        }
    }

    /// Runs `lane` until `body` returns, woken once at the start.
    static func running(_ lane: DeliveryLane<Int>, _ body: () async throws -> Void) async throws {
        let (wakes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let running = Task {
            await lane.run(wakes: wakes, wake: { continuation.yield() }, claimFailed: { _ in })
        }
        continuation.yield()
        try await body()
        running.cancel()
        continuation.finish()
        await running.value
    }

    @Test("every delivery is sent while the results of the first ones are still being recorded")
    func sendsGoOnWhileRecording() async throws {
        let outbox = Outbox(count: 20)
        try await Self.running(outbox.lane(workers: 2)) {
            try await outbox.wait { outbox.sent.withLock { $0.count } == 20 }
            #expect(outbox.sent.withLock { $0.sorted() } == Array(0..<20))
            #expect(outbox.recorded.withLock { $0.isEmpty }, "no result was recorded yet")
            outbox.recordingsHeld.withLock { $0 = false }
            try await outbox.wait { outbox.recorded.withLock { $0.count } == 20 }
            #expect(outbox.recorded.withLock { $0.sorted() } == Array(0..<20))
        }
    }

    @Test("while results cannot be recorded, the lane claims no more than it may keep outstanding")
    func outstandingBounded() async throws {
        let outbox = Outbox(count: 500)
        let lane = outbox.lane(workers: 2)
        try await Self.running(lane) {
            try await outbox.wait { outbox.sent.withLock { $0.count } == lane.maximumOutstanding }
            // Time for any claim beyond the bound to show.
            try await Task.sleep(for: .milliseconds(50))
            #expect(outbox.sent.withLock { $0.count } == lane.maximumOutstanding)
            #expect(outbox.due.withLock { $0.count } == 500 - lane.maximumOutstanding)
            outbox.recordingsHeld.withLock { $0 = false }
            try await outbox.wait { outbox.recorded.withLock { $0.count } == 500 }
            #expect(outbox.sent.withLock { Set($0) } == Set(0..<500))
        }
    }

    @Test("a wake that rings while a claim reads the outbox is answered by another claim, not by the next poll")
    func wakeDuringClaim() async throws {
        let due = Locked<[Int]>([])
        let sent = Locked<[Int]>([])
        let firstClaimRead = Locked(false)
        let firstClaimHeld = Locked(true)
        let lane = DeliveryLane<Int>(
            workers: 2,
            claim: { limit in
                // What this claim sees is read before the delivery is queued; it answers once let go.
                let seen = due.withLock { due in
                    defer { due.removeFirst(min(limit, due.count)) }
                    return Array(due.prefix(limit))
                }
                if !firstClaimRead.withLock({ $0 }) {
                    firstClaimRead.withLock { $0 = true }
                    while firstClaimHeld.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
                }
                return seen
            },
            send: { delivery in
                sent.withLock { $0.append(delivery) }
                return {}
            })
        let (wakes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let running = Task { await lane.run(wakes: wakes, wake: { continuation.yield() }, claimFailed: { _ in }) }
        continuation.yield()
        for _ in 0..<10_000 where !firstClaimRead.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        due.withLock { $0.append(7) }
        continuation.yield()
        // The wake is taken while the claim is under way.
        try await Task.sleep(for: .milliseconds(50))
        firstClaimHeld.withLock { $0 = false }
        for _ in 0..<10_000 where sent.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(1)) }
        #expect(sent.withLock { $0 } == [7])
        running.cancel()
        continuation.finish()
        await running.value
    }
}
