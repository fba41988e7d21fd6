import AsyncHTTPClient
import CofferTestSupport
import Crypto
import Foundation
import Secrets
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing
import WalletDocuments
import WalletPasses
import X509

@testable import WalletServer
import WalletServerTesting
@testable import WalletServices
@testable import WalletStore

/// APNsClient against the HTTP/2 TLS stand-in for Apple's gateway: what it sends, how each of Apple's answers
/// becomes an outcome, and both ways of authenticating.
@Suite("APNs client")
struct APNsClientTests {
    static let keyID = "KEY0000001"
    static let teamID = "TEAM000001"
    static let topic = "pass.dev.coffer.example"
    static let pushToken = String(repeating: "ab", count: 32)

    static func signingKey(_ key: P256.Signing.PrivateKey = P256.Signing.PrivateKey(), team: String = teamID) throws
        -> APNsSigningKey
    {
        try APNsSigningKey(privateKey: key, keyID: keyID, teamID: team)
    }

    /// Runs `body` with a token-authenticated client of a stand-in that trusts `key`'s tokens.
    static func withTokenClient(
        clientKey: APNsSigningKey? = nil, clock: any CofferClock = SystemClock(),
        _ body: (APNsClient, APNsStandIn) async throws -> Void
    ) async throws {
        let key = P256.Signing.PrivateKey()
        try await APNsStandIn.with(tokenKey: key.publicKey, keyID: keyID, teamID: teamID) { standIn in
            let client = APNsClient(
                configuration: APNsConfiguration(
                    gateway: .custom(standIn.url), authentication: .token(try clientKey ?? signingKey(key)),
                    requestTimeout: 10, additionalTrustRoots: [standIn.trustRoot]),
                clock: clock)
            do {
                try await body(client, standIn)
            } catch {
                try? await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }

    static func certificateClient(_ standIn: APNsStandIn) -> APNsClient {
        APNsClient(
            configuration: APNsConfiguration(
                gateway: .custom(standIn.url), authentication: .certificate, requestTimeout: 10,
                additionalTrustRoots: [standIn.trustRoot]))
    }

    @Test("a push is POST /3/device/<token> with the pass type as topic, a background push type and {}")
    func requestShape() async throws {
        try await Self.withTokenClient { client, standIn in
            let outcome = await client.send(pushToken: Self.pushToken, topic: Self.topic, identity: nil)
            #expect(outcome == .delivered)
            let request = try #require(standIn.received.first)
            #expect(request.path == "/3/device/" + Self.pushToken)
            #expect(request.headers["apns-topic"] == Self.topic)
            #expect(request.headers["apns-push-type"] == "background")
            #expect(request.headers["apns-priority"] == "5")
            #expect(request.body == "{}")
            #expect(request.bearer != nil)
            #expect(request.clientCertificateSubject == nil)
        }
    }

    static let answers: [(APNsStandIn.Answer, APNsPushOutcome)] = [
        (.ok, .delivered),
        (.unregistered, .unregistered(reason: "Unregistered")),
        (.badDeviceToken, .unregistered(reason: "BadDeviceToken")),
        (.deviceTokenNotForTopic, .unregistered(reason: "DeviceTokenNotForTopic")),
        (.tooManyRequests(retryAfter: "7"), .retry(after: 7, reason: "TooManyRequests")),
        (.tooManyRequests(), .retry(after: nil, reason: "TooManyRequests")),
        (.internalServerError, .retry(after: nil, reason: "InternalServerError")),
        (.serviceUnavailable, .retry(after: nil, reason: "ServiceUnavailable")),
        (.topicDisallowed, .rejected(status: 400, reason: "TopicDisallowed")),
        (.payloadTooLarge, .rejected(status: 413, reason: "PayloadTooLarge")),
    ]

    @Test("each of Apple's answers becomes its outcome", arguments: answers)
    func outcomes(answer: APNsStandIn.Answer, expected: APNsPushOutcome) async throws {
        try await Self.withTokenClient { client, standIn in
            standIn.script(Self.pushToken, answer)
            #expect(await client.send(pushToken: Self.pushToken, topic: Self.topic, identity: nil) == expected)
            #expect(standIn.received.map(\.status) == [answer.status])
        }
    }

    @Test("one provider token serves many pushes, and the stand-in accepts its ES256 signature")
    func tokenReused() async throws {
        try await Self.withTokenClient { client, standIn in
            for _ in 0..<3 {
                #expect(await client.send(pushToken: Self.pushToken, topic: Self.topic, identity: nil) == .delivered)
            }
            #expect(Set(standIn.received.compactMap(\.bearer)).count == 1)
            #expect(standIn.received.count == 3)
        }
    }

    @Test("a token signed by another key, or for another team, is refused as InvalidProviderToken")
    func wrongKey() async throws {
        for key in [try Self.signingKey(), try Self.signingKey(team: "OTHERTEAM1")] {
            try await Self.withTokenClient(clientKey: key) { client, _ in
                #expect(
                    await client.send(pushToken: Self.pushToken, topic: Self.topic, identity: nil)
                        == .rejected(status: 403, reason: "InvalidProviderToken"))
            }
        }
    }

    @Test("a token over an hour old is refused as expired, and the next push carries a new one")
    func expiredToken() async throws {
        let clock = ManualClock(Date().addingTimeInterval(-3700))
        try await Self.withTokenClient(clock: clock) { client, standIn in
            #expect(
                await client.send(pushToken: Self.pushToken, topic: Self.topic, identity: nil)
                    == .retry(after: nil, reason: "ExpiredProviderToken"))
            // Seconds later by the client's clock: without the refusal it would keep its token for 50 minutes.
            clock.advance(by: 5)
            #expect(await client.send(pushToken: Self.pushToken, topic: Self.topic, identity: nil) != .delivered)
            clock.set(Date())
            #expect(await client.send(pushToken: Self.pushToken, topic: Self.topic, identity: nil) == .delivered)
            let bearers = standIn.received.compactMap(\.bearer)
            #expect(bearers.count == 3 && Set(bearers).count == 3)
        }
    }

    @Test("certificate authentication presents the pass type's certificate and sends no token")
    func certificateAuthentication() async throws {
        let development = try DevelopmentIdentity.generate(passTypeIdentifier: Self.topic)
        try await APNsStandIn.with(clientCertificateAuthority: development.root) { standIn in
            let client = Self.certificateClient(standIn)
            #expect(
                await client.send(pushToken: Self.pushToken, topic: Self.topic, identity: development.signingIdentity)
                    == .delivered)
            standIn.script(Self.pushToken, .unregistered)
            #expect(
                await client.send(pushToken: Self.pushToken, topic: Self.topic, identity: development.signingIdentity)
                    == .unregistered(reason: "Unregistered"))
            try await client.shutdown()
            let received = standIn.received
            #expect(received.count == 2)
            #expect(received.allSatisfy { $0.bearer == nil && $0.headers["authorization"] == nil })
            #expect(received.allSatisfy { $0.clientCertificateSubject?.contains(Self.topic) == true })
        }
    }

    @Test("a connection without a client certificate or token is refused as MissingProviderToken")
    func missingCertificate() async throws {
        let development = try DevelopmentIdentity.generate(passTypeIdentifier: Self.topic)
        try await APNsStandIn.with(clientCertificateAuthority: development.root) { standIn in
            // A client presenting nothing: what a misconfigured server would send.
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates([standIn.trustRoot])]
            let http = HTTPClient(configuration: .init(tlsConfiguration: tls))
            var request = HTTPClientRequest(url: standIn.url.absoluteString + "/3/device/" + Self.pushToken)
            request.method = .POST
            request.headers.add(name: "apns-topic", value: Self.topic)
            request.headers.add(name: "apns-push-type", value: "background")
            request.body = .bytes(ByteBuffer(string: "{}"))
            let response = try await http.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1024)
            try await http.shutdown()
            #expect(
                APNsClient.outcome(status: Int(response.status.code), body: body, retryAfter: nil)
                    == .rejected(status: 403, reason: "MissingProviderToken"))
            // Certificate authentication with no identity at hand sends nothing.
            let client = Self.certificateClient(standIn)
            guard case .rejected(0, _) = await client.send(pushToken: Self.pushToken, topic: Self.topic, identity: nil)
            else {
                Issue.record("a push without an identity was not refused")
                return
            }
            try await client.shutdown()
            #expect(standIn.received.count == 1)
        }
    }

    @Test("a certificate from another authority is refused at the handshake: the push is retried, not delivered")
    func untrustedCertificate() async throws {
        let trusted = try DevelopmentIdentity.generate(passTypeIdentifier: Self.topic)
        let stranger = try DevelopmentIdentity.generate(passTypeIdentifier: Self.topic)
        try await APNsStandIn.with(clientCertificateAuthority: trusted.root) { standIn in
            let client = Self.certificateClient(standIn)
            let outcome = await client.send(
                pushToken: Self.pushToken, topic: Self.topic, identity: stranger.signingIdentity)
            try await client.shutdown()
            guard case .retry(nil, let reason) = outcome else {
                Issue.record("expected a retry, got \(outcome)")
                return
            }
            #expect(!reason.contains(Self.pushToken))
            #expect(standIn.received.isEmpty)
        }
    }

    @Test(
        "a push token that is not hex of a device token's length is never sent",
        arguments: [
            "", "abc", String(repeating: "a", count: 63), String(repeating: "ab", count: 8),
            String(repeating: "ab", count: 129), String(repeating: "zz", count: 32),
            String(repeating: "ab", count: 31) + "/.", "../../3/device/" + String(repeating: "ab", count: 24),
        ])
    func invalidPushTokens(pushToken: String) async throws {
        try await Self.withTokenClient { client, standIn in
            guard case .unregistered = await client.send(pushToken: pushToken, topic: Self.topic, identity: nil) else {
                Issue.record("an invalid push token was not treated as unregistered")
                return
            }
            #expect(standIn.received.isEmpty)
        }
    }

    @Test("after shutdown, pushes are answered retry and nothing is sent")
    func afterShutdown() async throws {
        try await Self.withTokenClient { client, standIn in
            #expect(await client.send(pushToken: Self.pushToken, topic: Self.topic, identity: nil) == .delivered)
            try await client.shutdown()
            guard case .retry = await client.send(pushToken: Self.pushToken, topic: Self.topic, identity: nil) else {
                Issue.record("a push after shutdown was not answered retry")
                return
            }
            #expect(standIn.received.count == 1)
        }
    }
}
