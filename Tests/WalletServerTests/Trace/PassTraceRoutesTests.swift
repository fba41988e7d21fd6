import CofferTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Secrets
import Testing
import WalletDocuments
import WalletPasses

@testable import WalletServer
import WalletServerTesting
@testable import WalletServices
@testable import WalletStore

/// A device stand-in registers for a pass, the pass changes without a `changeMessage`, the dispatcher pushes to the
/// APNs stand-in, and the trace and its diagnosis say what happened, through the management API's events route.
@Suite("A trace per pass: what happened to it, and why it may not update", .serialized)
struct PassTraceRoutesTests {
    static let device = "tracedevice0001"
    static let pushToken = String(repeating: "ef", count: 32)
    static let topic = "pass.dev.coffer.server"

    /// The world, its router's test client, the dispatcher's recorder, and an API token of the world's client.
    struct Fixture {
        let world: ProvisioningWorld
        let http: any TestClientProtocol
        let updater: PassUpdater
        let standIn: APNsStandIn
        let apiToken: String
        let passToken: String

        var passPath: String { "/passkit/v1/passes/\(PassTraceRoutesTests.topic)/PASS-001" }
        var auth: HTTPFields { [.authorization: "ApplePass \(passToken)", .contentType: "application/json"] }

        func passID() async throws -> UUID {
            try #require(try await world.repository.pass(tagID: world.tag.id)?.id)
        }

        /// Waits until the pass's newest event is of `kind` (the dispatcher records a push's result after APNs
        /// answered); whether it came.
        func newestEvent(is kind: PassEvent.Kind) async throws -> Bool {
            let passID = try await passID()
            for _ in 0..<200 {
                if try await world.repository.latestPassEvents(passID: passID, limit: 1).first?.kind == kind {
                    return true
                }
                try await Task.sleep(for: .milliseconds(25))
            }
            return false
        }

        /// `GET /api/v2/passes/PASS-001/events` as the client's backend, after the background events are stored.
        func events(query: String = "", token: String? = nil) async throws -> (HTTPResponse.Status, JSONValue?) {
            await world.service.trace.flush()
            let answer = try await Answer.send(
                http, .get, "/api/v2/passes/PASS-001/events" + query,
                headers: ManagementWorld.headers(token ?? apiToken))
            return (answer.status, try? JSONValue(parsing: answer.body))
        }
    }

    /// Runs `body` with a world whose passes carry a web service, bound and registered by the device stand-in, and a
    /// running dispatcher that pushes to an APNs stand-in.
    func withFixture(_ engine: Engine, _ body: @Sendable (Fixture) async throws -> Void) async throws {
        try await ProvisioningWorld.with(engine, webService: true) { world in
            try await APNsStandIn.with(clientCertificateAuthority: ProvisioningWorld.identity.root) { standIn in
                let repository = world.repository
                let client = APNsClient(
                    configuration: APNsConfiguration(
                        gateway: .custom(standIn.url), requestTimeout: 10, additionalTrustRoots: [standIn.trustRoot]))
                let dispatcher = DeliveryDispatcher(
                    outbox: repository, client: client, identity: { _ in ProvisioningWorld.identity.signingIdentity },
                    pollInterval: .seconds(3600), trace: world.service.trace, clock: world.clock)
                let updater = PassUpdater(
                    store: repository, clock: world.clock, trace: world.service.trace,
                    pushesQueued: { dispatcher.wake() })
                let router = WalletServerApplication.makeRouter(
                    repository: repository, service: world.service, logger: Logger(label: "test"), updater: updater)
                let running = Task { try await dispatcher.run() }
                defer { running.cancel() }
                try await Application(router: router).test(.router) { http in
                    let apiToken = try await repository.createAPIUser(clientID: world.apiUser.clientID, name: "t")
                        .token
                    let pkpass = try await PassWebServiceTests.bind(client: http, apiToken: apiToken)
                    let verified = try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(
                        pkpass: pkpass)
                    let passToken = try #require(verified.pass.authenticationToken)
                    let status = try await http.execute(
                        uri: "/passkit/v1/devices/\(Self.device)/registrations/\(Self.topic)/PASS-001", method: .post,
                        headers: [.authorization: "ApplePass \(passToken)", .contentType: "application/json"],
                        body: ByteBuffer(string: #"{"pushToken":"\#(Self.pushToken)"}"#)
                    ) { $0.status }
                    #expect(status == .created)
                    try await body(
                        Fixture(
                            world: world, http: http, updater: updater, standIn: standIn, apiToken: apiToken,
                            passToken: passToken))
                }
                running.cancel()
                try await running.value
            }
        }
    }

    /// The events' kinds, in order, and the diagnosis's codes, from an events page.
    static func kinds(_ page: JSONValue?) -> (events: [String], diagnosis: [String]) {
        guard case .object(let object)? = page, case .array(let events)? = object["events"],
            case .array(let diagnosis)? = object["diagnosis"]
        else { return ([], []) }
        func field(_ value: JSONValue, _ key: String) -> String? {
            guard case .object(let object) = value, case .string(let text)? = object[key] else { return nil }
            return text
        }
        return (events.compactMap { field($0, "kind") }, diagnosis.compactMap { field($0, "code") })
    }

    @Test(
        "a change without changeMessage is pushed, fetched and diagnosed as silent; devices show as digests",
        arguments: Engine.available)
    func silentChange(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            try await fixture.updater.update(
                passID: try await fixture.passID(), PassChange(fields: ["event": .text("Moved to Hall B")]))
            #expect(try await fixture.newestEvent(is: .pushSent))
            // The device, woken, lists what changed and fetches it.
            let list = "/passkit/v1/devices/\(Self.device)/registrations/\(Self.topic)"
            #expect(try await Answer.send(fixture.http, .get, list).status == .ok)
            #expect(try await Answer.send(fixture.http, .get, fixture.passPath, headers: fixture.auth).status == .ok)

            let (status, page) = try await fixture.events()
            #expect(status == .ok)
            let (events, diagnosis) = Self.kinds(page)
            #expect(
                events == [
                    "issued", "bound", "registered", "changed", "push_queued", "push_sent", "listed", "fetched",
                ])
            #expect(diagnosis == ["change_without_message"])
            let text = String(decoding: page.map { $0.serialized() } ?? Data(), as: UTF8.self)
            #expect(text.contains(#""change_message":false"#))
            #expect(text.contains("event (no changeMessage)"))
            #expect(text.contains(#""apns_id":""#), "APNs's apns-id is kept with the push")
            #expect(!text.contains(Self.device), "a device shows only as its keyed digest")
            #expect(!text.contains(Self.pushToken), "a push token never reaches the trace")
            let digest = fixture.world.service.trace.deviceDigest(Self.device)
            #expect(text.contains(#""device":"\#(digest)""#))
        }
    }

    @Test("a push APNs accepted that no device fetched, and TopicDisallowed, each get their finding")
    func pushFindings() async throws {
        try await withFixture(.sqliteFile) { fixture in
            let passID = try await fixture.passID()
            try await fixture.updater.update(passID: passID, PassChange(voided: true))
            #expect(try await fixture.newestEvent(is: .pushSent))
            fixture.world.clock.advance(by: PassTrace.fetchGrace + 1)
            #expect(Self.kinds(try await fixture.events().1).diagnosis == ["push_not_fetched"])

            fixture.standIn.script(Self.pushToken, .topicDisallowed)
            try await fixture.updater.update(passID: passID, PassChange(voided: false))
            #expect(try await fixture.newestEvent(is: .pushRefused))
            #expect(fixture.standIn.received.count == 2)
            let diagnosis = Self.kinds(try await fixture.events().1).diagnosis
            #expect(diagnosis.contains("push_credentials"))
        }
    }

    @Test("a device log line that names the pass is in its trace with the cause it reports")
    func deviceLogLine() async throws {
        try await withFixture(.sqliteFile) { fixture in
            let message =
                "[2026-11-27 10:00:00 +0000] Get pass task (pass type \(Self.topic), serial number PASS-001, "
                + "if-modified-since (null); with web service url \(ProvisioningWorld.webServiceURL)) encountered "
                + "error: Authentication failure"
            let unrelated = "[2026-11-27 10:00:01 +0000] Get serial #s task encountered error: timed out"
            let body = String(decoding: try JSONEncoder().encode(["logs": [message, unrelated]]), as: UTF8.self)
            let logged = try await Answer.send(
                fixture.http, .post, "/passkit/v1/log", headers: [.contentType: "application/json"], body: body)
            #expect(logged.status == .ok)
            let (_, page) = try await fixture.events()
            let (events, diagnosis) = Self.kinds(page)
            #expect(events.filter { $0 == "device_log" }.count == 1)
            #expect(diagnosis == ["device_log"])
            let text = String(decoding: page.map { $0.serialized() } ?? Data(), as: UTF8.self)
            #expect(text.contains("it must add the pass again"))
        }
    }

    @Test(
        "crafted device logs are marked unverified, kept at most 20 a day per pass, each message once",
        arguments: Engine.available)
    func craftedDeviceLogsAreBounded(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            func line(_ index: Int) -> String {
                "[\(index)] Get pass task (pass type \(Self.topic), serial number PASS-001, if-modified-since "
                    + "(null); with web service url \(ProvisioningWorld.webServiceURL)) encountered error: "
                    + "Authentication failure"
            }
            // 30 requests of 100 distinct lines, each from another address: what one attacker can send.
            for request in 0..<30 {
                let lines = (0..<100).map { line(request * 100 + $0) }
                let body = String(decoding: try JSONEncoder().encode(["logs": lines]), as: UTF8.self)
                let logged = try await Answer.send(
                    fixture.http, .post, "/passkit/v1/log",
                    headers: [
                        .contentType: "application/json", HTTPField.Name("X-Forwarded-For")!: "203.0.113.\(request)",
                    ],
                    body: body)
                #expect(logged.status == .ok)
            }
            // The same line again and again is one report.
            let repeated = String(
                decoding: try JSONEncoder().encode(["logs": Array(repeating: line(0), count: 50)]), as: UTF8.self)
            _ = try await Answer.send(
                fixture.http, .post, "/passkit/v1/log", headers: [.contentType: "application/json"], body: repeated)
            let passID = try await fixture.passID()
            let logs = try await fixture.world.repository.latestPassEvents(passID: passID, limit: 500, deviceLogs: true)
            #expect(logs.count == PassTrace.deviceLogsPerPass)
            #expect(logs.allSatisfy { $0.details["unverified"] == .bool(true) })
            let (_, page) = try await fixture.events()
            let text = String(decoding: page.map { $0.serialized() } ?? Data(), as: UTF8.self)
            #expect(text.contains("unauthenticated route"), "the finding says the report is unverified")

            // A day later a pass may get new reports.
            fixture.world.clock.advance(by: PassTrace.deviceLogWindow + 1)
            let later = String(decoding: try JSONEncoder().encode(["logs": [line(99_999)]]), as: UTF8.self)
            _ = try await Answer.send(
                fixture.http, .post, "/passkit/v1/log", headers: [.contentType: "application/json"], body: later)
            #expect(
                try await fixture.world.repository.latestPassEvents(passID: passID, limit: 500, deviceLogs: true)
                    .count == PassTrace.deviceLogsPerPass + 1)
        }
    }

    @Test("device logs, however many, never push the pass's real events out of the diagnosis")
    func deviceLogsDoNotCrowdTheDiagnosis() async throws {
        try await withFixture(.sqliteFile) { fixture in
            let passID = try await fixture.passID()
            try await fixture.updater.update(passID: passID, PassChange(fields: ["event": .text("Moved")]))
            // More device logs than the diagnosis reads, stored as an earlier version would have.
            let flood = (0..<(PassTrace.diagnosedEvents + 100)).map {
                fixture.world.service.trace.event(.deviceLog, passID: passID, details: ["message": .string("\($0)")])
            }
            try await fixture.world.repository.recordPassEvents(flood)
            let trace = PassTrace(
                repository: fixture.world.repository, webServiceURL: ProvisioningWorld.webServiceURL,
                clock: fixture.world.clock)
            let codes = try await trace.diagnosis(passID: passID).map(\.code)
            #expect(codes.contains("change_without_message"), "\(codes)")
        }
    }

    @Test("events page by cursor; a bad limit or cursor is 400, another client's tag 404, no token 401")
    func paging() async throws {
        try await withFixture(.sqliteFile) { fixture in
            let (_, all) = try await fixture.events()
            let total = Self.kinds(all).events.count
            #expect(total >= 3)
            var cursor: String?
            var seen: [String] = []
            repeat {
                let (status, page) = try await fixture.events(
                    query: "?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""))
                #expect(status == .ok)
                seen += Self.kinds(page).events
                guard case .object(let object)? = page else { break }
                cursor = object["next_cursor"].flatMap { if case .string(let text) = $0 { text } else { nil } }
            } while cursor != nil
            #expect(seen == Self.kinds(all).events)
            for query in ["?limit=0", "?limit=501", "?cursor=abc", "?cursor=-1"] {
                #expect(try await fixture.events(query: query).0 == .badRequest, "\(query)")
            }
            let other = try await fixture.world.repository.createClient(name: "Other")
            let otherToken = try await fixture.world.repository.createAPIUser(clientID: other.id, name: "o").token
            #expect(try await fixture.events(token: otherToken).0 == .notFound)
            let anonymous = try await Answer.send(fixture.http, .get, "/api/v2/passes/PASS-001/events")
            #expect(anonymous.status == .unauthorized)
        }
    }
}
