import Foundation
import Hummingbird
import WalletServices

/// The routes for operators: `GET /metrics` (Prometheus text format, when exposed) and `GET /ready` (readiness, as
/// opposed to `GET /health`, which only says the process answers).
struct OperationsController: Sendable {
    /// What `/metrics` serves.
    let metrics: ServerMetrics
    /// Whether `/metrics` is served at all.
    let exposesMetrics: Bool
    /// What `/ready` asks.
    let readiness: ReadinessProbe
    /// Who sent a request: `/ready` tells its reasons to this machine only, unless the operations token is sent.
    let clientAddress: ClientAddress
    /// The SHA-256 of the token that lets a caller beyond this machine read `/ready`'s reasons, if there is one.
    let operationsTokenHash: Data?

    init(
        metrics: ServerMetrics, exposesMetrics: Bool, readiness: ReadinessProbe, clientAddress: ClientAddress,
        operationsToken: String?
    ) {
        self.metrics = metrics
        self.exposesMetrics = exposesMetrics
        self.readiness = readiness
        self.clientAddress = clientAddress
        self.operationsTokenHash = operationsToken.map(SecretToken.hash)
    }

    func addRoutes(to router: Router<WalletRequestContext>) {
        if exposesMetrics {
            router.get("/metrics") { _, _ in self.scrape() }
        }
        router.get("/ready") { request, context in
            await self.ready(withReasons: self.mayReadReasons(request, context))
        }
    }

    /// Whether the caller may read why the server is not ready (store paths, pass types, database errors): a caller
    /// on this machine, or one that sends the operations token as `Authorization: Bearer <token>`.
    func mayReadReasons(_ request: Request, _ context: WalletRequestContext) -> Bool {
        if clientAddress.isLocal(request, context: context) { return true }
        guard let operationsTokenHash, let authorization = request.headers[.authorization],
            authorization.hasPrefix("Bearer ")
        else { return false }
        let token = authorization.dropFirst("Bearer ".count).trimmingCharacters(in: .whitespaces)
        return SecretToken.constantTimeEquals(SecretToken.hash(token), operationsTokenHash)
    }

    /// Every metric, in Prometheus text format.
    func scrape() -> Response {
        Response(
            status: .ok, headers: [.contentType: ServerMetrics.contentType, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
    }

    /// 200 `{"status":"ready"}`, 200 `{"status":"degraded","reasons":[…]}` (a certificate expires soon), or 503
    /// `{"status":"not_ready","reasons":[…]}`; the reasons only `withReasons`.
    func ready(withReasons: Bool) async -> Response {
        let body: Readiness
        let status: HTTPResponse.Status
        switch await readiness.check() {
        case .ready:
            (body, status) = (Readiness(status: "ready", reasons: nil), .ok)
        case .degraded(let reasons):
            (body, status) = (Readiness(status: "degraded", reasons: withReasons ? reasons : nil), .ok)
        case .notReady(let reasons):
            (body, status) = (Readiness(status: "not_ready", reasons: withReasons ? reasons : nil), .serviceUnavailable)
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
