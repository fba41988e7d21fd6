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
@testable import WalletServices
@testable import WalletStore

@Suite("GET /ready: 200 when the database answers and all signing identities load, else 503 with the fix")
struct ReadinessTests {
    struct Answer: Decodable {
        let status: String
        let reasons: [String]?
    }

    /// `GET /ready` on a router over `world`, with `readiness` (by default the world's own identities).
    static func ready(
        _ world: ProvisioningWorld, readiness: ReadinessProbe? = nil
    ) async throws -> (status: HTTPResponse.Status, answer: Answer, text: String) {
        let router = WalletServerApplication.makeRouter(
            repository: world.repository, service: world.service, logger: Logger(label: "test"), readiness: readiness)
        return try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/ready", method: .get) { response in
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                let text = String(buffer: response.body)
                return (response.status, try JSONDecoder().decode(Answer.self, from: Data(text.utf8)), text)
            }
        }
    }

    @Test("a healthy server is ready: 200 {\"status\":\"ready\"}")
    func healthy() async throws {
        try await ProvisioningWorld.with(.sqliteFile) { world in
            let (status, answer, text) = try await Self.ready(world)
            #expect(status == .ok)
            #expect(text == #"{"status":"ready"}"#)
            #expect(answer.reasons == nil)
        }
    }

    @Test("with the database down: 503 not_ready with a reason naming the database; /health still answers 200")
    func databaseDown() async throws {
        try await ProvisioningWorld.with(.sqliteFile) { world in
            try await world.database.shutdown()
            let (status, answer, _) = try await Self.ready(world)
            #expect(status == .serviceUnavailable)
            #expect(answer.status == "not_ready")
            let reasons = try #require(answer.reasons)
            #expect(reasons.count == 1)
            #expect(reasons.first?.contains("database") == true)
            #expect(reasons.first?.contains("DATABASE_URL") == true)
            let router = WalletServerApplication.makeRouter(
                repository: world.repository, service: world.service, logger: Logger(label: "test"))
            try await Application(router: router).test(.router) { client in
                try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
            }
        }
    }

    @Test(
        "off this machine /ready says only ready or not; reasons go to local callers or the operations token"
    )
    func reasonsOnlyForOperators() async throws {
        try await ProvisioningWorld.with(.sqliteFile) { world in
            try await world.database.shutdown()
            let operationsToken = "ops-token-0123456789abcdef"
            let router = WalletServerApplication.makeRouter(
                repository: world.repository, service: world.service, logger: Logger(label: "test"),
                operationsToken: operationsToken)
            try await Application(router: router).test(.router) { client in
                func ready(_ headers: HTTPFields) async throws -> (HTTPResponse.Status, String) {
                    try await client.execute(uri: "/ready", method: .get, headers: headers) {
                        ($0.status, String(buffer: $0.body))
                    }
                }
                let remote = HTTPField.Name("X-Forwarded-For")!
                let (status, text) = try await ready([remote: "203.0.113.9"])
                #expect(status == .serviceUnavailable)
                #expect(text == #"{"status":"not_ready"}"#)
                for wrong in ["Bearer nope-nope-nope-nope", "Basic \(operationsToken)"] {
                    #expect(try await ready([remote: "203.0.113.9", .authorization: wrong]).1 == text)
                }
                let withToken = try await ready([remote: "203.0.113.9", .authorization: "Bearer \(operationsToken)"])
                #expect(withToken.1.contains("DATABASE_URL"))
                #expect(try await ready([:]).1.contains("DATABASE_URL"), "a caller on this machine gets the reasons")
                #expect(try await ready([remote: "127.0.0.1"]).1.contains("DATABASE_URL"))
            }
        }
    }

    @Test("a pass type whose key is not in the secret store: 503 naming it and how to import it, no secret")
    func missingKey() async throws {
        try await ProvisioningWorld.with(.sqliteFile) { world in
            try await world.repository.createPassType(
                PassType(
                    passTypeIdentifier: "pass.dev.coffer.missing", teamIdentifier: "DEVTEAM000",
                    organizationName: "Acme", signingKeyPath: "wallet/pass-types/missing"))
            let (status, answer, text) = try await Self.ready(world)
            #expect(status == .serviceUnavailable)
            #expect(answer.status == "not_ready")
            let reasons = try #require(answer.reasons)
            // Only the broken pass type is named: the world's own one loads.
            #expect(reasons.count == 1)
            let reason = try #require(reasons.first)
            #expect(reason.contains("pass.dev.coffer.missing"))
            #expect(reason.contains("wallet/pass-types/missing"))
            #expect(reason.contains("coffer admin pass-type import"))
            #expect(!text.contains("PRIVATE KEY") && !text.contains("BEGIN"))
        }
    }

    @Test("an identity stored for another pass type: 503 saying whose it is")
    func wrongIdentity() async throws {
        try await ProvisioningWorld.with(.sqliteFile) { world in
            let secrets = AggregateSecretsStore(backend: InMemoryBackend())
            try ProvisioningWorld.identity.signingIdentity.save(to: secrets, at: "wallet/pass-types/server")
            try ProvisioningWorld.identity.signingIdentity.save(to: secrets, at: "wallet/pass-types/other")
            try await world.repository.createPassType(
                PassType(
                    passTypeIdentifier: "pass.dev.coffer.other", teamIdentifier: "DEVTEAM000",
                    organizationName: "Acme", signingKeyPath: "wallet/pass-types/other"))
            let probe = ReadinessProbe(repository: world.repository, identities: SigningIdentityCache(store: secrets))
            let (status, answer, _) = try await Self.ready(world, readiness: probe)
            #expect(status == .serviceUnavailable)
            let reasons = try #require(answer.reasons)
            #expect(reasons.count == 1)
            #expect(reasons.first?.contains("pass.dev.coffer.other") == true)
            #expect(reasons.first?.contains("pass.dev.coffer.server") == true)
        }
    }

    @Test("with no pass type at all the server is ready: there is no identity to load")
    func noPassTypes() async throws {
        let directory = try TemporaryDirectory()
        let database = try await Engine.sqliteFile.makeDatabase(in: directory)
        let probe = ReadinessProbe(
            repository: SQLWalletRepository(database: database),
            identities: SigningIdentityCache(store: AggregateSecretsStore(backend: InMemoryBackend())))
        let outcome = await probe.check()
        try await database.shutdown()
        #expect(outcome == .ready)
        #expect(await probe.check() != .ready, "the probe did not notice the database closing")
    }

    @Test(
        "an answer that does not come within the timeout counts as none, without waiting for it",
        .timeLimit(.minutes(1)))
    func timeout() async throws {
        // The operation ignores cancellation and ends only when the gate opens, after the probe has answered: a
        // probe that waited for it would never return.
        let gate = Gate()
        let late = await ReadinessProbe.answer(within: .milliseconds(50)) {
            await gate.wait()
            return 1
        }
        gate.open()
        #expect(late == nil)
        let prompt = await ReadinessProbe.answer(within: .seconds(60)) { 7 }
        #expect(try prompt?.get() == 7)
        struct Refused: Error {}
        let failed = await ReadinessProbe.answer(within: .seconds(60)) { () throws -> Int in throw Refused() }
        #expect(throws: Refused.self) { try failed?.get() }
    }

    @Test("the server from its configuration: /ready 200, /metrics counts it; COFFER_METRICS=off hides /metrics")
    func wholeServer() async throws {
        for exposes in [true, false] {
            let directory = try TemporaryDirectory()
            let configuration = WalletServerConfiguration(
                port: 0, dataDirectory: directory.appending("data"), exposesMetrics: exposes)
            let application = try await WalletServerApplication.buildApplication(
                configuration: configuration, logger: Logger(label: "test"))
            try await application.test(.live) { client in
                try await client.execute(uri: "/ready", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == #"{"status":"ready"}"#)
                }
                try await client.execute(uri: "/metrics", method: .get) { response in
                    #expect(response.status == (exposes ? .ok : .notFound))
                    if exposes {
                        let metrics = try PrometheusText(String(buffer: response.body))
                        #expect(
                            metrics.value(MetricsEndpointTests.requests, ["route": "/ready", "status": "200"]) == 1)
                    }
                }
            }
        }
    }

    @Test(
        "COFFER_METRICS takes on/off (also 1/0, true/false, yes/no); anything else is refused, naming it",
        arguments: [("on", true), ("OFF", false), ("1", true), ("0", false), ("true", true), ("no", false)])
    func metricsVariable(_ text: String, _ expected: Bool) throws {
        #expect(try WalletServerConfiguration(environment: ["COFFER_METRICS": text]).exposesMetrics == expected)
        #expect(try WalletServerConfiguration(environment: [:]).exposesMetrics)
    }

    @Test(
        "a COFFER_METRICS that is not on or off is refused, naming the variable", arguments: ["maybe", "2", "enabled"])
    func badMetricsVariable(_ text: String) {
        #expect {
            try WalletServerConfiguration(environment: ["COFFER_METRICS": text])
        } throws: { error in
            "\(error)".contains("COFFER_METRICS")
        }
    }
}

/// A wait that ends when ``open()`` is called (before or after the wait began), and not on cancellation.
final class Gate: @unchecked Sendable {
    // Safety: `isOpen` and `waiting` are only read and written while holding `lock`.
    private let lock = NSLock()
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = lock.withLock {
                if !isOpen { waiting.append(continuation) }
                return isOpen
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let resumed = lock.withLock {
            isOpen = true
            defer { waiting = [] }
            return waiting
        }
        for continuation in resumed { continuation.resume() }
    }
}
