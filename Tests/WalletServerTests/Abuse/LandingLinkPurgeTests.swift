import CofferTestSupport
import Foundation
import Secrets
import Testing
import WalletServer
import WalletServices
import WalletStore

@Suite("Expired landing links are purged in the background with the sessions")
struct LandingLinkPurgeTests {
    @Test("the purger deletes the expired links and keeps the live ones", arguments: Engine.available)
    func purge(_ engine: Engine) async throws {
        try await ProvisioningWorld.with(engine) { world in
            let repository = world.repository
            let pass = try #require(try await repository.pass(tagID: world.tag.id))
            let now = world.clock.now
            let live = SecretToken.hash("live-token")
            for (name, expiresAt) in [("live-token", now + 3600), ("old-1", now - 60), ("old-2", now - 1)] {
                try await repository.createLandingLink(
                    LandingLink(
                        tokenHash: SecretToken.hash(name), passID: pass.id, clientID: world.apiUser.clientID,
                        createdAt: now - 7200, expiresAt: expiresAt))
            }
            try await SessionPurger(
                repository: repository, interval: .seconds(60), batchSize: 1, clock: ManualClock(now)
            )
            .purge()
            #expect(try await repository.deleteExpiredLandingLinks(now: now, limit: 10) == 0, "none left to purge")
            #expect(try await repository.landingTarget(tokenHash: live, now: now) != nil, "the live link is kept")
        }
    }
}
