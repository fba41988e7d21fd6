import CofferTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import WalletPasses

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("GET /metrics: Prometheus text counting requests by route pattern and status, never a secret")
struct MetricsEndpointTests {
    static let requests = "coffer_http_requests_total"
    static let latency = "coffer_http_request_duration_seconds"

    /// Runs `body` with a test client of the application over a fresh world (its metrics in `metrics`), and the
    /// world's API token.
    func withClient(
        metrics: ServerMetrics = ServerMetrics(), exposesMetrics: Bool = true,
        issuanceLimit: RateLimit = .default,
        _ body: @Sendable (any TestClientProtocol, ProvisioningWorld, String) async throws -> Void
    ) async throws {
        try await ProvisioningWorld.withClient(.sqliteFile, body) { world in
            WalletServerApplication.makeRouter(
                repository: world.repository, service: world.service, logger: Logger(label: "test"),
                issuanceLimiter: RateLimiter<UUID>(limit: issuanceLimit), metrics: metrics,
                exposesMetrics: exposesMetrics)
        }
    }

    /// `GET /metrics`, checked to be 200 with the Prometheus content type and parsed strictly.
    static func scrape(_ client: some TestClientProtocol) async throws -> (text: String, metrics: PrometheusText) {
        let text = try await client.execute(uri: "/metrics", method: .get) { response in
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            return String(buffer: response.body)
        }
        return (text, try PrometheusText(text))
    }

    static func count(_ metrics: PrometheusText, route: String, status: Int) -> Double {
        metrics.value(requests, ["route": route, "status": String(status)]) ?? 0
    }

    @Test("/metrics parses as Prometheus text, with every family typed and described, all under coffer_")
    func parses() async throws {
        try await withClient { client, _, _ in
            _ = try await client.execute(uri: "/health", method: .get) { _ in }
            let (_, metrics) = try await Self.scrape(client)
            #expect(metrics.types[Self.requests] == "counter")
            #expect(metrics.types[Self.latency] == "histogram")
            for family in [
                "coffer_signing_duration_seconds", "coffer_database_duration_seconds",
            ] {
                #expect(metrics.types[family] == "histogram", "\(family)")
            }
            for family in [
                "coffer_provisioning_sessions_issued_total", "coffer_provisioning_sessions_consumed_total",
                "coffer_provisioning_sessions_expired_total", "coffer_issuance_rate_limited_total",
            ] {
                #expect(metrics.types[family] == "counter", "\(family)")
                #expect(metrics.value(family) == 0, "\(family)")
            }
            for (family, _) in metrics.types {
                #expect(family.hasPrefix("coffer_"))
                #expect(metrics.help[family]?.isEmpty == false, "\(family) has no HELP")
            }
        }
    }

    @Test("requests are counted by route pattern and status, and their latencies land in the route's histogram")
    func countsByRouteAndStatus() async throws {
        try await withClient { client, _, token in
            let before = try await Self.scrape(client).metrics
            for _ in 0..<3 { _ = try await client.execute(uri: "/health", method: .get) { _ in } }
            _ = try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: "not-" + token),
                body: ByteBuffer(string: #"{"tag_id":"PASS-001"}"#)
            ) { #expect($0.status == .unauthorized) }
            _ = try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                body: ByteBuffer(string: "not json")
            ) { #expect($0.status == .badRequest) }
            _ = try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                body: ByteBuffer(string: #"{"tag_id":"PASS-001"}"#)
            ) { #expect($0.status == .ok) }
            let after = try await Self.scrape(client).metrics

            func moved(_ route: String, _ status: Int) -> Double {
                Self.count(after, route: route, status: status) - Self.count(before, route: route, status: status)
            }
            #expect(moved("/health", 200) == 3)
            #expect(moved(ProvisioningAPI.issuerData, 401) == 1)
            #expect(moved(ProvisioningAPI.issuerData, 400) == 1)
            #expect(moved(ProvisioningAPI.issuerData, 200) == 1)
            #expect(moved(ProvisioningAPI.issuerData, 429) == 0)
            // The scrape before this one counted too, once it had answered.
            #expect(moved("/metrics", 200) == 1)
            let healthCount = try #require(after.value(Self.latency + "_count", ["route": "/health"]))
            #expect(healthCount == 3)
            #expect(after.value(Self.latency + "_count", ["route": ProvisioningAPI.issuerData]) == 3)
            #expect(try #require(after.value(Self.latency + "_sum", ["route": "/health"])) > 0)
            // Every bucket bound the server promises is there, and the last finite one holds every request.
            let bounds = after.buckets(Self.latency, ["route": "/health"]).map(\.bound)
            #expect(bounds.dropLast() == ServerMetrics.requestBuckets.map { Self.seconds($0) })
            #expect(after.buckets(Self.latency, ["route": "/health"]).dropLast().last?.count == 3)
        }
    }

    @Test(
        "unknown paths and wrong methods count under one 'unmatched' route, not a label per path",
        arguments: [["/nope/1", "/nope/2", "/api/v2/in_app_provisioning/issuer_data/PASS-001", "/health/secret-tag"]])
    func unmatchedIsOneLabel(_ paths: [String]) async throws {
        try await withClient { client, _, _ in
            for path in paths {
                _ = try await client.execute(uri: path, method: .get) { #expect($0.status == .notFound) }
            }
            _ = try await client.execute(uri: "/health", method: .post) { #expect($0.status == .methodNotAllowed) }
            _ = try await client.execute(uri: "/health?tag=PASS-001", method: .get) { #expect($0.status == .ok) }
            let (text, metrics) = try await Self.scrape(client)
            #expect(Self.count(metrics, route: "unmatched", status: 404) == Double(paths.count))
            #expect(Self.count(metrics, route: "unmatched", status: 405) == 1)
            #expect(Self.count(metrics, route: "/health", status: 200) == 1)
            #expect(metrics.labelValues("route", of: Self.requests) == ["unmatched", "/health"])
            for fragment in ["nope", "PASS-001", "secret-tag", "tag="] {
                #expect(!text.contains(fragment), "\(fragment) leaked into /metrics")
            }
        }
    }

    @Test("an issuer-data request refused by the rate limit is counted, as a 429 and in its own counter")
    func rateLimitedCounted() async throws {
        try await withClient(issuanceLimit: RateLimit(perMinute: 1, burst: 1)) { client, _, token in
            var statuses: [Int] = []
            for _ in 0..<3 {
                statuses.append(
                    try await client.execute(
                        uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                        body: ByteBuffer(string: #"{"tag_id":"MISSING"}"#)
                    ) { $0.status.code })
            }
            #expect(statuses == [404, 429, 429])
            let (_, metrics) = try await Self.scrape(client)
            #expect(metrics.value("coffer_issuance_rate_limited_total") == 2)
            #expect(Self.count(metrics, route: ProvisioningAPI.issuerData, status: 429) == 2)
            #expect(Self.count(metrics, route: ProvisioningAPI.issuerData, status: 404) == 1)
        }
    }

    @Test("after a whole provisioning, /metrics holds no token, session identifier, tag, account or key")
    func nothingSecret() async throws {
        try await withClient { client, world, token in
            let issued = try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                body: ByteBuffer(string: #"{"tag_id":"PASS-001"}"#)
            ) { response in
                try JSONDecoder().decode([String: String].self, from: Data(response.body.readableBytesView))
            }
            let data = try #require(issued["issuer_data"].flatMap { Data(base64Encoded: $0) })
            let binding = try JSONDecoder().decode(IssuerBindingData.self, from: data)
            _ = try await client.execute(
                uri: ProvisioningAPI.callback + "?sessionIdentifier=\(binding.sessionIdentifier)", method: .post,
                headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"issuerBindingData":"0a0b","keyHash":"c0ffee"}"#)
            ) { #expect($0.status == .ok) }
            let (text, metrics) = try await Self.scrape(client)
            #expect(Self.count(metrics, route: ProvisioningAPI.callback, status: 200) == 1)
            let secrets = [
                token, binding.sessionIdentifier, binding.fidoProfile.accountHash, "PASS-001", "9001",
                world.tag.id.uuidString, world.apiUser.id.uuidString, world.apiUser.clientID.uuidString, "c0ffee",
                "0a0b", "PRIVATE KEY", "sessionIdentifier",
            ]
            for secret in secrets {
                #expect(!text.contains(secret), "\(secret) appears in /metrics")
            }
            // Labels are only route patterns, status codes and bucket bounds.
            let labelNames = Set(metrics.samples.flatMap(\.labels.keys))
            #expect(labelNames.isSubset(of: ["route", "status", "le"]))
        }
    }

    @Test(
        "sessions issued and consumed are counted, signing and database steps timed; a refusal consumes none"
    )
    func provisioningCounted() async throws {
        try await ProvisioningWorld.with(.sqliteFile) { world in
            let service = world.service
            func exposition() throws -> PrometheusText {
                try PrometheusText(String(decoding: service.metrics.exposition(), as: UTF8.self))
            }
            let issued = try await service.issuerData(for: world.apiUser, tagID: "PASS-001", attribute: .referenceID)
            let data = try #require(Data(base64Encoded: issued.issuerData))
            let session = try JSONDecoder().decode(IssuerBindingData.self, from: data).sessionIdentifier
            await #expect(throws: ProvisioningService.Failure.self) {
                try await service.completeBinding(sessionIdentifier: "unknown", issuerBindingData: "0a", keyHash: "0b")
            }
            #expect(try exposition().value("coffer_provisioning_sessions_consumed_total") == 0)
            _ = try await service.completeBinding(
                sessionIdentifier: session, issuerBindingData: "0a0b", keyHash: "c0ffee")

            let metrics = try exposition()
            #expect(metrics.value("coffer_provisioning_sessions_issued_total") == 1)
            #expect(metrics.value("coffer_provisioning_sessions_consumed_total") == 1)
            #expect(metrics.value("coffer_signing_duration_seconds_count") == 2, "the issuer data and the pass")
            // Issuance: target, write. Callbacks: the refused consumption; then consumption, target, binding.
            #expect(metrics.value("coffer_database_duration_seconds_count") == 6)
            #expect(try #require(metrics.value("coffer_signing_duration_seconds_sum")) > 0)
        }
    }

    @Test("with metrics off, /metrics is unknown and requests go uncounted, while /ready and /health answer")
    func metricsOff() async throws {
        let metrics = ServerMetrics()
        try await withClient(metrics: metrics, exposesMetrics: false) { client, _, _ in
            _ = try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .notFound) }
            _ = try await client.execute(uri: "/ready", method: .get) { #expect($0.status == .ok) }
            _ = try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
        }
        let exposition = try PrometheusText(String(decoding: metrics.exposition(), as: UTF8.self))
        #expect(exposition.samples(named: Self.requests).isEmpty)
        #expect(exposition.samples(named: Self.latency + "_count").isEmpty)
    }

    @Test(
        "/metrics and /ready answer GET only: another method is 405 with Allow: GET",
        arguments: [("/metrics", HTTPRequest.Method.post), ("/ready", .put), ("/ready", .delete), ("/metrics", .patch)])
    func otherMethods(_ path: String, _ method: HTTPRequest.Method) async throws {
        try await withClient { client, _, _ in
            try await client.execute(uri: path, method: method) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET")
            }
        }
    }

    @Test("expired sessions deleted by the purge are counted, batch by batch")
    func expiredSessionsCounted() async throws {
        try await Engine.sqliteFile.withRepository { repository, _ in
            let pass = try await repository.makePass().pass
            try await repository.makeSessions(of: pass, expired: 5, now: Date())
            let metrics = ServerMetrics()
            let purger = SessionPurger(repository: repository, interval: .seconds(60), batchSize: 2, metrics: metrics)
            #expect(try await purger.purge() == 5)
            #expect(try await purger.purge() == 0)
            let exposition = try PrometheusText(String(decoding: metrics.exposition(), as: UTF8.self))
            #expect(exposition.value("coffer_provisioning_sessions_expired_total") == 5)
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
