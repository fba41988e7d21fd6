import CofferTestSupport
import Foundation
import SQLKit
import Secrets
import Testing

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("Recently authenticated API users are trusted for a few seconds, never longer")
struct RecentlyAuthenticatedTests {
    let user = APIUser(clientID: UUID(), name: "app", tokenHash: Data([1, 2, 3]))

    @Test("a kept user is answered until its lifetime ends, then forgotten")
    func lifetime() {
        let clock = ManualClock()
        let cache = RecentlyAuthenticated(lifetime: .seconds(5), clock: clock)
        #expect(cache.user(tokenHash: user.tokenHash) == nil, "unknown until kept")
        cache.keep(user, tokenHash: user.tokenHash)
        clock.advance(by: .seconds(4))
        #expect(cache.user(tokenHash: user.tokenHash) == user)
        clock.advance(by: .seconds(1))
        #expect(cache.user(tokenHash: user.tokenHash) == nil)
    }

    @Test("forgetting a user (revoked here) drops it at once; a zero lifetime keeps nothing")
    func forget() {
        let cache = RecentlyAuthenticated(lifetime: .seconds(5))
        cache.keep(user, tokenHash: user.tokenHash)
        cache.forget(userID: user.id)
        #expect(cache.user(tokenHash: user.tokenHash) == nil)
        let never = RecentlyAuthenticated(lifetime: .zero)
        never.keep(user, tokenHash: user.tokenHash)
        #expect(never.user(tokenHash: user.tokenHash) == nil)
    }

    @Test("a full cache makes room instead of growing")
    func capacity() {
        let cache = RecentlyAuthenticated(lifetime: .seconds(5), capacity: 4, clock: ManualClock())
        for index in 0..<10 { cache.keep(user, tokenHash: Data([UInt8(index)])) }
        let kept = (0..<10).filter { cache.user(tokenHash: Data([UInt8($0)])) != nil }
        #expect(kept.count <= 4)
        #expect(kept.contains(9), "the newest is kept")
    }

    @Test(
        "a revocation through the repository takes effect at once; one made elsewhere within the lifetime",
        arguments: Engine.available)
    func revocation(_ engine: Engine) async throws {
        let directory = try TemporaryDirectory()
        let url = try await engine.makeDatabaseURL(in: directory)
        let database = try await Engine.migrated(try WalletDatabase.open(url: url))
        let other = try WalletDatabase.open(url: url)
        let repository = SQLWalletRepository(database: database, authenticationLifetime: .milliseconds(300))
        let elsewhere = SQLWalletRepository(database: other)
        let client = try await repository.createClient(name: "Acme")
        let (first, firstToken) = try await repository.createAPIUser(clientID: client.id, name: "one")
        let (second, secondToken) = try await repository.createAPIUser(clientID: client.id, name: "two")
        #expect(try await repository.apiUser(token: firstToken)?.id == first.id)
        #expect(try await repository.apiUser(token: secondToken)?.id == second.id)

        #expect(try await repository.revokeAPIUser(id: first.id))
        #expect(try await repository.apiUser(token: firstToken) == nil, "revoked here: refused at once")

        #expect(try await elsewhere.revokeAPIUser(id: second.id))
        try await Task.sleep(for: .milliseconds(400))
        #expect(
            try await repository.apiUser(token: secondToken) == nil, "revoked elsewhere: refused after the lifetime")
        try await other.shutdown()
        try await database.shutdown()
    }
}
