import Foundation
import Hummingbird

/// The routes for operators: `GET /metrics` (Prometheus text format, when exposed) and `GET /ready` (readiness, as
/// opposed to `GET /health`, which only says the process answers).
struct OperationsController: Sendable {
    /// What `/metrics` serves.
    let metrics: ServerMetrics
    /// Whether `/metrics` is served at all.
    let exposesMetrics: Bool
    /// What `/ready` asks.
    let readiness: ReadinessProbe

    func addRoutes(to router: Router<BasicRequestContext>) {
        if exposesMetrics {
            router.get("/metrics") { _, _ in self.scrape() }
        }
        router.get("/ready") { _, _ in await self.ready() }
    }

    /// The methods each of ``addRoutes(to:)``'s paths answers.
    var methods: [String: [HTTPRequest.Method]] {
        exposesMetrics ? ["/metrics": [.get], "/ready": [.get]] : ["/ready": [.get]]
    }

    /// Every metric, in Prometheus text format.
    func scrape() -> Response {
        Response(
            status: .ok, headers: [.contentType: ServerMetrics.contentType, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
    }

    /// 200 `{"status":"ready"}`, or 503 `{"status":"not_ready","reasons":[…]}`.
    func ready() async -> Response {
        let body: Readiness
        let status: HTTPResponse.Status
        switch await readiness.check() {
        case .ready:
            (body, status) = (Readiness(status: "ready", reasons: nil), .ok)
        case .notReady(let reasons):
            (body, status) = (Readiness(status: "not_ready", reasons: reasons), .serviceUnavailable)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(body)) ?? Data(#"{"status":"not_ready"}"#.utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private struct Readiness: Encodable {
        let status: String
        let reasons: [String]?
    }
}
