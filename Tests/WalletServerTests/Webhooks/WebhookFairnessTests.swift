import CofferTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SQLKit
import Secrets
import Testing
import WalletDocuments
import WalletPasses
import WalletServerTesting

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

/// The outbox is shared by every client: a client whose endpoint answers `200` and then trickles its body one byte
/// at a time must not hold up another client's webhooks or anyone's APNs pushes, and its own attempts end at the
/// sender's deadline, body included.
@Suite("One client's slow webhook endpoint holds up no other client's webhooks and no push")
struct WebhookFairnessTests {
    static let device = "fairdevice0001"
    static let pushToken = String(repeating: "ef", count: 32)

    /// An endpoint that answers 200 at once, then trickles its body for a minute; it counts the
    /// attempts it received, the most it had at once, and those whose connection the sender closed before the body
    /// ended.
    final class TricklingEndpoint: Sendable {
        private let counts = Locked((started: 0, inFlight: 0, mostInFlight: 0, cutOff: 0))
        var started: Int { counts.withLock { $0.started } }
        var mostInFlight: Int { counts.withLock { $0.mostInFlight } }
        var cutOff: Int { counts.withLock { $0.cutOff } }

        func response() -> Response {
            counts.withLock {
                $0.started += 1
                $0.inFlight += 1
                $0.mostInFlight = max($0.mostInFlight, $0.inFlight)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain"],
                body: ResponseBody { [counts] writer in
                    do {
                        // A byte every 50 ms, so that a closed connection is seen at once.
                        for _ in 0..<1_200 {
                            try await writer.write(ByteBuffer(string: "."))
                            try await Task.sleep(for: .milliseconds(50))
                        }
                        try await writer.finish(nil)
                    } catch {
                        counts.withLock {
                            $0.cutOff += 1
                            $0.inFlight -= 1
                        }
                        throw error
                    }
                    counts.withLock { $0.inFlight -= 1 }
                })
        }
    }

    @Test(
        "a trickling endpoint is cut off at the deadline while the healthy tenant's webhook and a push arrive",
        arguments: Engine.available)
    func tricklingEndpoint(_ engine: Engine) async throws {
        try await ProvisioningWorld.with(engine, webService: true) { world in
            try await APNsStandIn.with(clientCertificateAuthority: ProvisioningWorld.identity.root) { standIn in
                let receiver = WebhookReceiver()
                let trickle = TricklingEndpoint()
                let hooks = receiver.router()
                hooks.post("/slow") { _, _ in trickle.response() }
                try await Application(router: hooks).test(.live) { hooksClient in
                    let port = try #require(hooksClient.port)
                    try await run(
                        world: world, standIn: standIn, receiver: receiver, trickle: trickle,
                        hooks: "http://127.0.0.1:\(port)")
                }
            }
        }
    }

    func run(
        world: ProvisioningWorld, standIn: APNsStandIn, receiver: WebhookReceiver, trickle: TricklingEndpoint,
        hooks: String
    ) async throws {
        let repository = world.repository
        let secrets = AggregateSecretsStore(backend: InMemoryBackend())
        let dispatcher = DeliveryDispatcher(
            outbox: repository,
            client: APNsClient(
                configuration: APNsConfiguration(
                    gateway: .custom(standIn.url), requestTimeout: 10, additionalTrustRoots: [standIn.trustRoot])),
            identity: { _ in ProvisioningWorld.identity.signingIdentity }, pollInterval: .seconds(3600),
            trace: world.service.trace,
            webhooks: WebhookSender(secrets: secrets, timeout: Self.deadline, allowsLoopback: true),
            wakeUp: world.outbox, clock: world.clock)
        let updater = PassUpdater(
            store: repository, clock: world.clock, trace: world.service.trace, pushesQueued: { dispatcher.wake() })
        let router = WalletServerApplication.makeRouter(
            repository: repository, service: world.service, logger: Logger(label: "test"), updater: updater,
            webhookSecrets: secrets, allowsLoopbackWebhooks: true)
        let running = Task { try await dispatcher.run() }
        defer { running.cancel() }
        try await Application(router: router).test(.router) { http in
            // Client A is the world's; client B is another tenant, with the same pass type shared.
            let tokenA = try await repository.createAPIUser(clientID: world.apiUser.clientID, name: "a").token
            let clientB = try await repository.createClient(name: "Beta")
            let passTypeID = try #require(try await repository.pass(tagID: world.tag.id)?.passTypeID)
            try await repository.grantPassType(passTypeID: passTypeID, clientID: clientB.id, now: world.clock.now)
            let tokenB = try await repository.createAPIUser(clientID: clientB.id, name: "b").token
            let pkpass = try await PassWebServiceTests.bind(client: http, apiToken: tokenA)
            let passToken = try #require(
                try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(pkpass: pkpass).pass
                    .authenticationToken)
            let registered = try await http.execute(
                uri: "/passkit/v1/devices/\(Self.device)/registrations/pass.dev.coffer.server/PASS-001",
                method: .post, headers: [.authorization: "ApplePass \(passToken)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"pushToken":"\#(Self.pushToken)"}"#)
            ) { $0.status }
            #expect(registered == .created)

            func send(_ method: HTTPRequest.Method, _ uri: String, _ token: String, _ body: String) async throws
                -> Answer
            {
                try await Answer.send(http, method, uri, headers: ManagementWorld.headers(token), body: body)
            }
            // Three endpoints of A's, all trickling: more than one client's share of the workers.
            for index in 1...3 {
                #expect(
                    try await send(
                        .post, "/api/v2/webhook_endpoints", tokenA,
                        #"{"url":"\#(hooks)/slow?endpoint=\#(index)","event_types":["pass.updated"]}"#
                    ).status == .created)
            }
            let createdB = try await send(
                .post, "/api/v2/webhook_endpoints", tokenB, #"{"url":"\#(hooks)/hooks","event_types":["pass.updated"]}"#
            )
            let secretB = try #require(
                (try JSONSerialization.jsonObject(with: createdB.body) as? [String: Any])?["secret"] as? String)
            receiver.expect(secret: secretB)
            #expect(try await send(.post, "/api/v2/passes", tokenB, #"{"reference_id":"B-1"}"#).status == .created)

            // A changes more passes than its endpoint may have in flight: each change is a trickling delivery.
            for index in 1...4 {
                #expect(
                    try await send(.post, "/api/v2/passes", tokenA, #"{"reference_id":"A-\#(index)"}"#).status
                        == .created)
                #expect(try await send(.patch, "/api/v2/passes/A-\(index)", tokenA, #"{"voided":true}"#).status == .ok)
            }
            #expect(await Self.eventually(within: .seconds(10)) { trickle.started >= 1 })

            // B's change reaches B's endpoint, and A's change reaches A's device, while A's endpoint trickles.
            #expect(try await send(.patch, "/api/v2/passes/B-1", tokenB, #"{"voided":true}"#).status == .ok)
            #expect(
                await Self.eventually(within: .seconds(10)) { !receiver.deliveries.isEmpty },
                "the healthy tenant's webhook arrives while the other's endpoint trickles")
            #expect(receiver.deliveries.first?.signed == true)
            // A's endpoints got A's whole share of the workers, and never more at once (a slow run may already have
            // cut off and retried an attempt, so the count of attempts alone says nothing).
            #expect(trickle.mostInFlight == DeliveryDispatcher.webhooksPerClient)
            #expect(
                try await send(.patch, "/api/v2/passes/PASS-001", tokenA, #"{"voided":true}"#).status == .ok)
            #expect(
                await Self.eventually(within: .seconds(10)) { standIn.received.count == 1 },
                "the push goes out while the webhook endpoint trickles")

            // Each attempt ends at the deadline, body included.
            #expect(
                await Self.eventually(within: .seconds(30)) { trickle.cutOff >= 1 },
                "the sender closes the connection of a body that does not end within its deadline")
            #expect(
                await Self.eventually(within: .seconds(30)) {
                    let errors = (try? await Self.lastErrors(world)) ?? []
                    return errors.contains { $0.contains("did not answer in full within 20 s") }
                })
        }
        running.cancel()
        try? await running.value
    }

    /// The webhook sender's overall deadline: twice the longest wait for the healthy tenant's webhook and the push,
    /// so that they arrive while the trickling endpoint still holds its workers even on a loaded machine.
    static let deadline: TimeInterval = 20

    /// The `last_error` of every webhook delivery waiting in the outbox.
    static func lastErrors(_ world: ProvisioningWorld) async throws -> [String] {
        let rows = try await world.database.sql.select().column("last_error").from("push_outbox")
            .where("kind", .equal, "webhook").all()
        return try rows.compactMap { try $0.decodeNil(column: "last_error") ? nil : $0.decode(column: "last_error") }
    }

    /// Whether `condition` holds within `limit`, checked every 50 ms.
    static func eventually(within limit: Duration, _ condition: @Sendable () async -> Bool) async -> Bool {
        let end = ContinuousClock.now + limit
        while ContinuousClock.now < end {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return await condition()
    }
}
