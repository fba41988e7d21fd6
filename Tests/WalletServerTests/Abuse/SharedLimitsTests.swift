import CofferTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import HummingbirdTesting
import SQLKit
import Secrets
import Testing
import WalletPasses

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

/// The limits that protect money and other clients hold across replicas: counted in the database they share, not
/// once per process.
@Suite("Limits shared by replicas, the management API's change budget and the callback's")
struct SharedLimitsTests {
    /// A store that cannot be reached.
    struct UnreachableBuckets: RateBucketStore {
        func takeFromRateBucket(_ bucket: Data, limit: RateLimit, now: Date) async throws -> Duration? {
            throw WalletServerError.databaseUnavailable("gone")
        }
        func deleteFullRateBuckets(now: Date, limit: Int) async throws -> Int { 0 }
    }

    @Test(
        "two replicas on one database share each caller's budget, and the bucket keeps no key",
        arguments: Engine.available)
    func replicasShareABudget(_ engine: Engine) async throws {
        try await ProvisioningWorld.with(engine) { world in
            let clock = ManualClock()
            let limit = RateLimit(perMinute: 60, burst: 3)
            let replicas = (0..<2).map { _ in
                RateLimiter<String>(
                    limit: limit, clock: clock, shared: (name: "registrations", store: world.repository))
            }
            let address = "198.51.100.7"
            var decisions: [RateLimiter<String>.Decision] = []
            for index in 0..<4 { decisions.append(await replicas[index % 2].acquireAcrossReplicas(for: address)) }
            #expect(decisions.prefix(3).allSatisfy { $0 == .allowed })
            guard case .limited(let wait) = decisions[3] else {
                Issue.record("the fourth request across both replicas went through")
                return
            }
            #expect(wait > .zero && wait <= .seconds(1))
            #expect(await replicas[1].acquireAcrossReplicas(for: "198.51.100.8") == .allowed, "another caller")
            clock.advance(by: .seconds(1))
            #expect(await replicas[0].acquireAcrossReplicas(for: address) == .allowed, "refilled")

            let buckets = try await world.database.sql.select().column("bucket").from("rate_buckets")
                .all(decodingColumn: "bucket", as: Data.self)
            #expect(buckets.count == 2)
            #expect(buckets.allSatisfy { $0.range(of: Data(address.utf8)) == nil && $0.count == 32 })
            clock.advance(by: .seconds(60))
            #expect(try await world.repository.deleteFullRateBuckets(now: clock.now, limit: 10) == 2)
        }
    }

    @Test("a budget store that went away does not lift the limit: the process counts alone")
    func unreachableStoreStillLimits() async {
        let limiter = RateLimiter<UUID>(
            limit: RateLimit(perMinute: 60, burst: 2), clock: ManualClock(),
            shared: (name: "issuance", store: UnreachableBuckets()))
        let token = UUID()
        #expect(await limiter.acquireAcrossReplicas(for: token) == .allowed)
        #expect(await limiter.acquireAcrossReplicas(for: token) == .allowed)
        #expect(await limiter.acquireAcrossReplicas(for: token) != .allowed)
    }

    @Test("an API user's changes are limited: past the burst, 429 with Retry-After; reading is not")
    func managementChangesAreLimited() async throws {
        try await ManagementWorld.with(.sqliteFile) { world in
            let router = WalletServerApplication.makeRouter(
                repository: world.world.repository, service: world.world.service, logger: Logger(label: "test"),
                updater: world.updater, changeLimit: RateLimit(perMinute: 1, burst: 3))
            try await Application(router: router).test(.router) { client in
                var statuses: [HTTPResponse.Status] = []
                for _ in 0..<4 {
                    let answer = try await ManagementWorld.send(
                        client, .post, "/api/v2/passes/PASS-001/void", token: world.token)
                    statuses.append(answer.status)
                    if answer.status == .tooManyRequests { #expect(answer.headers[.retryAfter] != nil) }
                }
                #expect(statuses == [.ok, .ok, .ok, .tooManyRequests])
                let read = try await ManagementWorld.send(client, .get, "/api/v2/passes/PASS-001", token: world.token)
                #expect(read.status == .ok)
                let other = try await ManagementWorld.send(
                    client, .post, "/api/v2/passes", token: world.otherToken, body: #"{"reference_id":"X-1"}"#)
                #expect(other.status != .tooManyRequests, "another API user has its own budget")
            }
        }
    }

    @Test("the callback's answer is never cached, and one address's callbacks are limited")
    func callbackLimitsAndCaching() async throws {
        try await ProvisioningWorld.withClient(
            .sqliteFile,
            { client, world, token in
                let issued = try await client.execute(
                    uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                    body: ByteBuffer(string: #"{"tag_id":"PASS-001"}"#)
                ) { try JSONDecoder().decode([String: String].self, from: Data($0.body.readableBytesView)) }
                let data = try #require(issued["issuer_data"].flatMap { Data(base64Encoded: $0) })
                let session = try JSONDecoder().decode(IssuerBindingData.self, from: data).sessionIdentifier
                let body = #"{"issuerBindingData":"0a0b","keyHash":"c0ffee"}"#
                let bound = try await Answer.send(
                    client, .post, "/api/v2/in_app_provisioning/callback?sessionIdentifier=\(session)",
                    headers: [.contentType: "application/json"], body: body)
                #expect(bound.status == .ok)
                #expect(bound.headers[.cacheControl] == "no-store")
                var limited = false
                for _ in 0..<(ProvisioningController.callbackLimit.burst * 2) where !limited {
                    let answer = try await Answer.send(
                        client, .post, "/api/v2/in_app_provisioning/callback?sessionIdentifier=nosuchsession",
                        headers: [.contentType: "application/json"], body: body)
                    limited = answer.status == .tooManyRequests
                }
                #expect(limited)
            },
            router: { world in
                WalletServerApplication.makeRouter(
                    repository: world.repository, service: world.service, logger: Logger(label: "test"))
            })
    }
}
