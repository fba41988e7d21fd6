import Foundation
import Hummingbird
import Logging

/// Builds the provisioning server's HTTP application.
public enum WalletServerApplication {
    /// The routes: `GET /health`, `POST /api/v2/in_app_provisioning/issuer_data`,
    /// `POST /api/v2/in_app_provisioning/callback`.
    public static func makeRouter(
        repository: any WalletRepository, service: ProvisioningService, logger: Logger
    ) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestLogMiddleware(logger: logger))
        router.get("/health") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
        }
        ProvisioningController(repository: repository, service: service)
            .addRoutes(to: router.group("api/v2/in_app_provisioning"))
        return router
    }

    /// The application, listening on `host`:`port`.
    public static func buildApplication(
        repository: any WalletRepository, service: ProvisioningService, host: String, port: Int,
        logger: Logger = Logger(label: "coffer.server")
    ) -> some ApplicationProtocol {
        Application(
            router: makeRouter(repository: repository, service: service, logger: logger),
            configuration: .init(address: .hostname(host, port: port), serverName: "coffer"), logger: logger)
    }
}

/// Logs one line per request: an id, method, path (without the query), status and latency — never headers,
/// bodies or query strings, which can carry tokens and session identifiers.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let id = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        var status = 500
        defer {
            let elapsed = ContinuousClock.now - started
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            logger.info(
                "request",
                metadata: [
                    "request_id": "\(id)", "method": "\(request.method)", "path": "\(request.uri.path)",
                    "status": "\(status)", "latency_ms": "\(String(format: "%.2f", milliseconds))",
                ])
        }
        do {
            let response = try await next(request, context)
            status = response.status.code
            return response
        } catch let error as any HTTPResponseError {
            status = error.status.code
            throw error
        }
    }
}
