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

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

/// Webhooks end to end: an endpoint made through the management API, events from the web service and the updater,
/// deliveries through the push outbox to a receiver that checks every signature.
@Suite("Webhooks for the issuer's backend: signed, ordered per pass, delivered once through the outbox", .serialized)
struct WebhookDeliveryTests {
    static let device = "hookdevice0001"
    static let pushToken = String(repeating: "ab", count: 32)

    /// A world with a web service and its pass bound, the whole router with a webhook secret store, and a dispatcher
    /// that sends webhooks only (no APNs: pushes are claimed by nobody).
    struct Fixture {
        let world: ProvisioningWorld
        let http: any TestClientProtocol
        let apiToken: String
        let passToken: String
        let updater: PassUpdater
        let dispatcher: DeliveryDispatcher
        let receiver: WebhookReceiver
        let receiverURL: String

        /// Makes an endpoint through the API for `types` (all when `nil`); its answer.
        func createEndpoint(types: [String]? = nil, url: String? = nil) async throws -> Answer {
            var object: [String: Any] = ["url": url ?? receiverURL]
            if let types { object["event_types"] = types }
            let body = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
            return try await Answer.send(
                http, .post, "/api/v2/webhook_endpoints", headers: ManagementWorld.headers(apiToken), body: body)
        }

        func register(_ device: String = WebhookDeliveryTests.device) async throws -> HTTPResponse.Status {
            try await http.execute(
                uri: "/passkit/v1/devices/\(device)/registrations/pass.dev.coffer.server/PASS-001", method: .post,
                headers: [.authorization: "ApplePass \(passToken)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"pushToken":"\#(WebhookDeliveryTests.pushToken)"}"#)
            ) { $0.status }
        }

        func unregister(_ device: String = WebhookDeliveryTests.device) async throws -> HTTPResponse.Status {
            try await http.execute(
                uri: "/passkit/v1/devices/\(device)/registrations/pass.dev.coffer.server/PASS-001", method: .delete,
                headers: [.authorization: "ApplePass \(passToken)"]
            ) { $0.status }
        }

        func passID() async throws -> UUID {
            try #require(try await world.repository.pass(tagID: world.tag.id)?.id)
        }
    }

    func withFixture(_ engine: Engine, _ body: @Sendable (Fixture) async throws -> Void) async throws {
        try await ProvisioningWorld.with(engine, webService: true) { world in
            try await WebhookReceiver.with { receiver, url in
                let repository = world.repository
                let secrets = AggregateSecretsStore(backend: InMemoryBackend())
                let dispatcher = DeliveryDispatcher(
                    outbox: repository,
                    client: APNsClient(
                        configuration: APNsConfiguration(gateway: .custom(URL(string: "https://127.0.0.1:9")!))),
                    identity: { _ in ProvisioningWorld.identity.signingIdentity }, pollInterval: .seconds(3600),
                    trace: world.service.trace,
                    webhooks: WebhookSender(secrets: secrets, allowsLoopback: true, clock: world.clock),
                    clock: world.clock)
                let updater = PassUpdater(store: repository, clock: world.clock, trace: world.service.trace)
                let router = WalletServerApplication.makeRouter(
                    repository: repository, service: world.service, logger: Logger(label: "test"), updater: updater,
                    webhookSecrets: secrets, allowsLoopbackWebhooks: true)
                try await Application(router: router).test(.router) { http in
                    let apiToken = try await repository.createAPIUser(clientID: world.apiUser.clientID, name: "t")
                        .token
                    let pkpass = try await PassWebServiceTests.bind(client: http, apiToken: apiToken)
                    let pass = try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(
                        pkpass: pkpass)
                    try await body(
                        Fixture(
                            world: world, http: http, apiToken: apiToken,
                            passToken: try #require(pass.pass.authenticationToken), updater: updater,
                            dispatcher: dispatcher, receiver: receiver, receiverURL: url))
                }
                try await dispatcher.client.shutdown()
            }
        }
    }

    /// Drains the outbox until it sends nothing more.
    static func deliver(_ fixture: Fixture) async throws {
        await fixture.world.service.trace.flush()
        while try await fixture.dispatcher.drain() > 0 {}
    }

    @Test(
        "added, updated, removed: each delivery signed with the endpoint's secret, with its event id, in order",
        arguments: Engine.available)
    func lifecycle(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            let created = try await fixture.createEndpoint()
            #expect(created.status == .created, "\(created.text)")
            #expect(created.headers[.cacheControl] == "no-store")
            let endpoint = try #require(try JSONSerialization.jsonObject(with: created.body) as? [String: Any])
            let secret = try #require(endpoint["secret"] as? String)
            #expect(secret.hasPrefix("whsec_") && secret.count == 49)
            fixture.receiver.expect(secret: secret)

            #expect(try await fixture.register() == .created)
            #expect(try await fixture.register("hookdevice0002") == .created)
            try await fixture.updater.update(
                passID: try await fixture.passID(), PassChange(fields: ["event": .text("Moved")]))
            #expect(try await fixture.unregister("hookdevice0002") == .ok)
            #expect(try await fixture.unregister() == .ok)
            try await Self.deliver(fixture)

            let deliveries = fixture.receiver.deliveries
            #expect(deliveries.map(\.type) == ["pass.added", "pass.updated", "pass.removed"])
            #expect(deliveries.allSatisfy { $0.signed })
            #expect(Set(deliveries.map(\.eventID)).count == 3)
            #expect(deliveries.allSatisfy { $0.eventID.hasPrefix("evt_") && $0.json["id"] as? String == $0.eventID })
            let data = try #require(deliveries.first?.json["data"] as? [String: Any])
            #expect((data["pass"] as? [String: Any])?["serial_number"] as? String == "PASS-001")
            #expect((data["tag"] as? [String: Any])?["reference_id"] as? String == "PASS-001")
            // The device as a digest of this client's own: another client's webhooks name the same phone otherwise.
            let traceDigest = fixture.world.service.trace.deviceDigest(Self.device)
            #expect(
                data["device"] as? String
                    == PassEventRecorder.webhookDeviceDigest(traceDigest, clientID: fixture.world.apiUser.clientID))
            #expect(data["device"] as? String != traceDigest)
            #expect(
                PassEventRecorder.webhookDeviceDigest(traceDigest, clientID: UUID())
                    != PassEventRecorder.webhookDeviceDigest(traceDigest, clientID: fixture.world.apiUser.clientID))
            let updated = try #require(deliveries[1].json["data"] as? [String: Any])
            #expect((updated["fields"] as? [[String: Any]])?.first?["key"] as? String == "event")

            let listed = try await Answer.send(
                fixture.http, .get, "/api/v2/webhook_endpoints", headers: ManagementWorld.headers(fixture.apiToken))
            #expect(listed.status == .ok)
            #expect(!listed.text.contains(secret) && !listed.text.contains(#""secret""#))
            let rows = try await fixture.world.database.sql.select().column("*").from("webhook_endpoints").all()
            #expect(rows.count == 1)
            #expect(try await fixture.world.database.sql.select().column("*").from("push_outbox").all().isEmpty)
        }
    }

    @Test(
        "two replicas draining one outbox deliver every event once, each pass's events in order",
        arguments: Engine.available)
    func twoReplicas(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            let created = try await fixture.createEndpoint(types: ["pass.updated"])
            let secret = try #require(
                (try JSONSerialization.jsonObject(with: created.body) as? [String: Any])?["secret"] as? String)
            fixture.receiver.expect(secret: secret)
            var references = ["PASS-001"]
            for index in 1...2 {
                let made = try await Answer.send(
                    fixture.http, .post, "/api/v2/passes", headers: ManagementWorld.headers(fixture.apiToken),
                    body: #"{"reference_id":"R-\#(index)"}"#)
                #expect(made.status == .created, "\(made.text)")
                references.append("R-\(index)")
            }
            for round in 0..<12 {
                for reference in references {
                    let changed = try await Answer.send(
                        fixture.http, .patch, "/api/v2/passes/\(reference)",
                        headers: ManagementWorld.headers(fixture.apiToken),
                        body: #"{"voided":\#(round.isMultiple(of: 2) ? "true" : "false")}"#)
                    #expect(changed.status == .ok, "\(changed.text)")
                }
            }
            await fixture.world.service.trace.flush()
            // A second server on the same database, with its own connections and dispatcher.
            let replica = try await Engine.migrated(try WalletDatabase.open(url: fixture.world.databaseURL))
            try await replica.whileOpen { replica in
                let other = DeliveryDispatcher(
                    outbox: SQLWalletRepository(database: replica), client: fixture.dispatcher.client,
                    identity: { _ in ProvisioningWorld.identity.signingIdentity }, pollInterval: .seconds(3600),
                    webhooks: fixture.dispatcher.webhooks, clock: fixture.world.clock)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for dispatcher in [fixture.dispatcher, other] {
                        group.addTask { while try await dispatcher.drain() > 0 {} }
                    }
                    try await group.waitForAll()
                }
                while try await fixture.dispatcher.drain() > 0 {}
            }
            let deliveries = fixture.receiver.deliveries
            #expect(deliveries.count == references.count * 12)
            #expect(deliveries.allSatisfy { $0.signed })
            #expect(Set(deliveries.map(\.eventID)).count == deliveries.count, "no event delivered twice")
            var lastTag: [String: Double] = [:]
            for delivery in deliveries {
                let data = try #require(delivery.json["data"] as? [String: Any])
                let serial = try #require((data["pass"] as? [String: Any])?["serial_number"] as? String)
                let tag = try #require(data["update_tag"] as? Double)
                #expect(tag > lastTag[serial, default: 0], "\(serial)'s events arrive in order")
                lastTag[serial] = tag
            }
        }
    }

    @Test("a failing endpoint is retried with backoff, then kept as failed after a day and shown in the trace")
    func retriedThenFailed() async throws {
        try await withFixture(.sqliteFile) { fixture in
            let secret =
                try #require(
                    try JSONSerialization.jsonObject(
                        with: try await fixture.createEndpoint(types: ["pass.updated"]).body) as? [String: Any])?[
                    "secret"] as? String
            fixture.receiver.expect(secret: try #require(secret))
            fixture.receiver.script(.internalServerError, .serviceUnavailable)
            try await fixture.updater.update(passID: try await fixture.passID(), PassChange(voided: true))
            try await Self.deliver(fixture)
            #expect(fixture.receiver.deliveries.count == 1, "the first attempt failed; the retry is not yet due")
            fixture.world.clock.advance(by: 3600)
            try await Self.deliver(fixture)
            fixture.world.clock.advance(by: 3600)
            try await Self.deliver(fixture)
            #expect(fixture.receiver.deliveries.map(\.type) == ["pass.updated", "pass.updated", "pass.updated"])
            #expect(Set(fixture.receiver.deliveries.map(\.eventID)).count == 1, "every attempt is the same event")

            fixture.receiver.script(
                .internalServerError, .internalServerError, .internalServerError, .internalServerError,
                .internalServerError, .internalServerError, .internalServerError, .internalServerError,
                .internalServerError, .internalServerError, .internalServerError, .internalServerError,
                .internalServerError, .internalServerError, .internalServerError, .internalServerError,
                .internalServerError, .internalServerError, .internalServerError, .internalServerError,
                .internalServerError, .internalServerError, .internalServerError, .internalServerError,
                .internalServerError, .internalServerError, .internalServerError, .internalServerError)
            try await fixture.updater.update(passID: try await fixture.passID(), PassChange(voided: false))
            for _ in 0..<30 {
                fixture.world.clock.advance(by: 3600)
                try await Self.deliver(fixture)
            }
            let failed = try await fixture.world.repository.failedWebhookDeliveries(
                passID: try await fixture.passID(), limit: 10)
            #expect(failed.count == 1)
            #expect(failed.first?.eventType == .passUpdated)
            let trace = PassTrace(
                repository: fixture.world.repository, webServiceURL: ProvisioningWorld.webServiceURL,
                clock: fixture.world.clock)
            await fixture.world.service.trace.flush()
            let passID = try await fixture.passID()
            let codes = try await trace.diagnosis(passID: passID).map(\.code)
            #expect(codes.contains("webhook_failed"))
            let attemptsBefore = fixture.receiver.deliveries.count
            fixture.world.clock.advance(by: 86_400)
            try await Self.deliver(fixture)
            #expect(fixture.receiver.deliveries.count == attemptsBefore, "a failed delivery is never sent again")
        }
    }

    @Test("a delivery given up keeps the keys of what a user entered, not the values, and goes with the trace")
    func failedDeliveriesKeepNoPersonalValues() async throws {
        try await withFixture(.sqliteFile) { fixture in
            let created = try await fixture.createEndpoint(types: ["pass.personalized"])
            let object = try #require(try JSONSerialization.jsonObject(with: created.body) as? [String: Any])
            fixture.receiver.expect(secret: try #require(object["secret"] as? String))
            fixture.receiver.script(.internalServerError)
            let trace = fixture.world.service.trace
            await trace.record(
                trace.event(
                    .personalized, passID: try await fixture.passID(), details: ["fields": .array([.string("name")])],
                    webhookDetails: ["details": .object(["name": .string("Jane Appleseed")])]))
            try await Self.deliver(fixture)
            #expect(fixture.receiver.deliveries.count == 1)
            #expect(
                String(decoding: try #require(fixture.receiver.deliveries.first).body, as: UTF8.self)
                    .contains("Jane Appleseed"), "the issuer gets what the user entered")
            for _ in 0..<30 {
                fixture.receiver.script(.internalServerError)
                fixture.world.clock.advance(by: 3600)
                try await Self.deliver(fixture)
            }
            let payloads = try await fixture.world.database.sql.select().column("payload").from("push_outbox")
                .where("failed_at", .isNot, SQLLiteral.null).all(decodingColumn: "payload", as: String.self)
            #expect(payloads.count == 1)
            #expect(payloads.allSatisfy { !$0.contains("Jane Appleseed") && $0.contains(#""details":["name"]"#) })

            let purger = SessionPurger(
                repository: fixture.world.repository, interval: .seconds(3600), traceRetention: 86_400,
                clock: fixture.world.clock)
            try await purger.purge()
            #expect(try await Self.failedCount(fixture) == 1, "kept as long as the trace that shows it")
            fixture.world.clock.advance(by: 2 * 86_400)
            try await purger.purge()
            #expect(try await Self.failedCount(fixture) == 0)
        }
    }

    static func failedCount(_ fixture: Fixture) async throws -> Int {
        try await fixture.world.database.sql.select().column("id").from("push_outbox")
            .where("failed_at", .isNot, SQLLiteral.null).all().count
    }

    @Test("an endpoint takes only the types it asked for; deleting it drops its waiting deliveries")
    func typesAndDeletion() async throws {
        try await withFixture(.sqliteFile) { fixture in
            let created = try await fixture.createEndpoint(types: ["pass.removed"])
            let object = try #require(try JSONSerialization.jsonObject(with: created.body) as? [String: Any])
            fixture.receiver.expect(secret: try #require(object["secret"] as? String))
            #expect(try await fixture.register() == .created)
            try await fixture.updater.update(passID: try await fixture.passID(), PassChange(voided: true))
            try await Self.deliver(fixture)
            #expect(fixture.receiver.deliveries.isEmpty)
            #expect(try await fixture.unregister() == .ok)
            await fixture.world.service.trace.flush()
            let id = try #require(object["id"] as? String)
            let deleted = try await Answer.send(
                fixture.http, .delete, "/api/v2/webhook_endpoints/\(id)",
                headers: ManagementWorld.headers(fixture.apiToken))
            #expect(deleted.status == .noContent)
            try await Self.deliver(fixture)
            #expect(fixture.receiver.deliveries.isEmpty)
            #expect(try await fixture.world.database.sql.select().column("*").from("push_outbox").all().isEmpty)
        }
    }

    @Test("bad endpoints are refused: not https, internal addresses, unknown types, more than 10; 404 elsewhere")
    func badEndpoints() async throws {
        try await withFixture(.sqliteFile) { fixture in
            for (url, types) in [
                ("http://hooks.example.com/x", nil), ("https://10.0.0.7/x", nil), ("https://169.254.169.254/", nil),
                ("https://[fd00::1]/x", nil), ("https://user:pw@hooks.example.com/", nil), ("not a url", nil),
                ("https://hooks.example.com/x", ["pass.exploded"]), ("https://hooks.example.com/x", []),
            ] as [(String, [String]?)] {
                let answer = try await fixture.createEndpoint(types: types, url: url)
                #expect(answer.status == .badRequest, "\(url) \(types ?? []): \(answer.text)")
            }
            for index in 0..<WebhookEndpoints.maximumPerClient {
                let answer = try await fixture.createEndpoint(url: "https://hooks.example.com/\(index)")
                #expect(answer.status == .created)
            }
            #expect(try await fixture.createEndpoint(url: "https://hooks.example.com/more").status == .conflict)
            for id in ["nope", UUID().uuidString] {
                let answer = try await Answer.send(
                    fixture.http, .delete, "/api/v2/webhook_endpoints/\(id)",
                    headers: ManagementWorld.headers(fixture.apiToken))
                #expect(answer.status == .notFound)
            }
            #expect(try await Answer.send(fixture.http, .get, "/api/v2/webhook_endpoints").status == .unauthorized)
        }
    }
}

@Suite("Coffer-Signature: t=<seconds>,v1=<hex HMAC-SHA256 of \"t.body\">, checked in constant time")
struct WebhookSignatureTests {
    static let secret = "whsec_" + String(repeating: "k", count: 43)
    static let body = Data(#"{"id":"evt_1","type":"pass.updated"}"#.utf8)
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a header verifies over the same body and secret, at a time within the tolerance")
    func roundTrip() {
        let header = WebhookSignature.header(for: Self.body, secret: Self.secret, timestamp: Self.now)
        #expect(header.hasPrefix("t=1800000000,v1="))
        #expect(WebhookSignature.verify(header: header, body: Self.body, secret: Self.secret, now: Self.now))
        #expect(
            WebhookSignature.verify(
                header: header, body: Self.body, secret: Self.secret, now: Self.now.addingTimeInterval(299)))
    }

    @Test("a changed body, another secret, an old timestamp or a mangled header fails")
    func refusals() {
        let header = WebhookSignature.header(for: Self.body, secret: Self.secret, timestamp: Self.now)
        var changed = Self.body
        changed[changed.count - 2] ^= 1
        #expect(!WebhookSignature.verify(header: header, body: changed, secret: Self.secret, now: Self.now))
        #expect(!WebhookSignature.verify(header: header, body: Self.body, secret: "whsec_other", now: Self.now))
        #expect(
            !WebhookSignature.verify(
                header: header, body: Self.body, secret: Self.secret, now: Self.now.addingTimeInterval(301)))
        for mangled in ["", "t=1800000000", "v1=00", "t=x,v1=zz", header.replacingOccurrences(of: "v1=", with: "v0=")] {
            #expect(!WebhookSignature.verify(header: mangled, body: Self.body, secret: Self.secret, now: Self.now))
        }
    }

    @Test("any of several v1 signatures may match (a rolled secret)")
    func severalSignatures() {
        let header = WebhookSignature.header(for: Self.body, secret: Self.secret, timestamp: Self.now)
        let signature = header.split(separator: ",")[1]
        let both = "t=1800000000,v1=" + String(repeating: "0", count: 64) + "," + signature
        #expect(WebhookSignature.verify(header: both, body: Self.body, secret: Self.secret, now: Self.now))
    }
}
