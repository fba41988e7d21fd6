import Foundation
import Secrets
import Testing

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("A token bucket per key, in memory: an API token's issuances, a client address's requests")
struct RateLimiterTests {
    let clock = ManualClock()

    func limiter(_ limit: RateLimit, sweepThreshold: Int = 1024) -> RateLimiter<UUID> {
        let clock = clock
        return RateLimiter<UUID>(limit: limit, clock: clock, sweepThreshold: sweepThreshold)
    }

    @Test("a token makes its burst at once, then waits for the refill, and is told how long")
    func burstThenWait() {
        let limiter = limiter(RateLimit(perMinute: 60, burst: 3))
        let token = UUID()
        for _ in 0..<3 { #expect(limiter.acquire(for: token) == .allowed) }
        #expect(limiter.acquire(for: token) == .limited(retryAfter: .seconds(1)))
        clock.advance(by: .milliseconds(500))
        #expect(limiter.acquire(for: token) == .limited(retryAfter: .milliseconds(500)))
        clock.advance(by: .milliseconds(500))
        #expect(limiter.acquire(for: token) == .allowed)
        #expect(limiter.acquire(for: token) == .limited(retryAfter: .seconds(1)))
    }

    @Test("a refused request does not cost anything: waiting the time it names is enough")
    func refusalIsFree() {
        let limiter = limiter(RateLimit(perMinute: 6, burst: 1))
        let token = UUID()
        #expect(limiter.acquire(for: token) == .allowed)
        for _ in 0..<5 { #expect(limiter.acquire(for: token) == .limited(retryAfter: .seconds(10))) }
        clock.advance(by: .seconds(10))
        #expect(limiter.acquire(for: token) == .allowed)
    }

    @Test("tokens are limited independently of each other")
    func independentTokens() {
        let limiter = limiter(RateLimit(perMinute: 1, burst: 1))
        let (first, second) = (UUID(), UUID())
        #expect(limiter.acquire(for: first) == .allowed)
        #expect(limiter.acquire(for: first) != .allowed)
        #expect(limiter.acquire(for: second) == .allowed)
    }

    @Test("a quiet spell refills the bucket up to the burst, never beyond")
    func refillCapped() {
        let limiter = limiter(RateLimit(perMinute: 60, burst: 5))
        let token = UUID()
        #expect(limiter.acquire(for: token) == .allowed)
        clock.advance(by: .seconds(3600))
        let allowed = (0..<20).filter { _ in limiter.acquire(for: token) == .allowed }.count
        #expect(allowed == 5)
    }

    @Test("with the limit off, nothing is refused and nothing is kept")
    func unlimited() {
        let limiter = limiter(.unlimited)
        let token = UUID()
        for _ in 0..<10_000 { #expect(limiter.acquire(for: token) == .allowed) }
        #expect(limiter.trackedBucketCount == 0)
    }

    @Test("buckets that have refilled are dropped as new tokens arrive, so memory follows recent activity only")
    func idleBucketsEvicted() {
        let limiter = limiter(RateLimit(perMinute: 60, burst: 5), sweepThreshold: 8)
        for _ in 0..<1000 { _ = limiter.acquire(for: UUID()) }
        #expect(limiter.trackedBucketCount == 1000)
        clock.advance(by: .seconds(60))
        for _ in 0..<1000 { _ = limiter.acquire(for: UUID()) }
        #expect(limiter.trackedBucketCount == 1000, "the first thousand, refilled, are gone")
    }

    @Test("a bucket still refilling is kept: dropping it would hand the token a fresh burst")
    func busyBucketsKept() {
        let limiter = limiter(RateLimit(perMinute: 1, burst: 2), sweepThreshold: 2)
        let busy = UUID()
        #expect(limiter.acquire(for: busy) == .allowed)
        #expect(limiter.acquire(for: busy) == .allowed)
        for _ in 0..<100 { _ = limiter.acquire(for: UUID()) }
        #expect(limiter.acquire(for: busy) != .allowed)
    }

    @Test("concurrent requests for one token never get more than the burst")
    func concurrent() async {
        let limiter = limiter(RateLimit(perMinute: 60, burst: 20))
        let token = UUID()
        let allowed = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<400 { group.addTask { limiter.acquire(for: token) == .allowed } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(allowed == 20)
    }

    @Test("Retry-After is the wait in whole seconds, rounded up, at least 1")
    func wholeSeconds() {
        #expect(ProvisioningController.wholeSeconds(.milliseconds(1)) == 1)
        #expect(ProvisioningController.wholeSeconds(.seconds(1)) == 1)
        #expect(ProvisioningController.wholeSeconds(.milliseconds(1001)) == 2)
        #expect(ProvisioningController.wholeSeconds(.zero) == 1)
        #expect(ProvisioningController.wholeSeconds(.seconds(59.5)) == 60)
    }

    @Test(
        "an unusable limit is refused with the setting's name",
        arguments: [
            (RateLimit(perMinute: -1, burst: 5), "RATE_LIMIT"), (.init(perMinute: 5, burst: 0), "BURST"),
        ])
    func invalid(_ limit: RateLimit, _ name: String) {
        #expect {
            try limit.validate()
        } throws: { error in
            guard case WalletServerError.invalidConfiguration(let reason) = error else { return false }
            return reason.contains("COFFER_ISSUANCE_\(name)")
        }
        #expect(throws: Never.self) { try RateLimit.unlimited.validate() }
        #expect(throws: Never.self) { try RateLimit.default.validate() }
    }
}
