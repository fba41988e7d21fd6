import Foundation
import Hummingbird
import Logging
import Secrets
import WalletServices

/// Logs one line per request (an id, method, the matched route's pattern as its path, the device's digest on Wallet's
/// device routes, status and latency) and turns errors the routes did not expect into the API's JSON error shape: 503
/// when the database is unavailable, 500 otherwise.
///
/// It never logs headers, bodies, query strings or path parameters, which can carry tokens, session identifiers,
/// tag values and device identifiers (``LoggedPath``).
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
            var metadata: Logger.Metadata = [
                "request_id": .string(id), "method": .string(request.method.rawValue),
                "path": "\(LoggedPath.logged(request.uri.path, route: context.endpointPath))",
                // The route pattern the router matched (set while routing), or none for an unknown path.
                "route": "\(context.endpointPath ?? "none")",
                "status": "\(status)", "latency_ms": "\(Self.milliseconds(elapsed))",
            ]
            if let device = context.parameters.get("device") {
                metadata["device"] = "\(DeviceIdentifierDigest.logValue(device))"
            }
            logger.info("request", metadata: metadata)
        }
        do {
            let response = try await next(request, context)
            status = response.status.code
            return response
        } catch let error as any HTTPResponseError {
            status = error.status.code
            throw error
        } catch {
            let apiError = Self.apiError(for: error)
            status = apiError.status.code
            logger.error(
                "request failed",
                metadata: ["request_id": "\(id)", "error": "\(LoggedError.description(of: error))"])
            throw apiError
        }
    }

    /// The answer for an error no controller mapped: a value the caller sent that could not be used is its fault
    /// (400), the database being away is temporary (503), the rest is a fault (500).
    static func apiError(for error: any Error) -> APIError {
        if case WalletServerError.invalidArgument(let reason) = error { return .badRequest(reason) }
        if case WalletServerError.databaseUnavailable = error {
            return APIError(
                .serviceUnavailable, code: "unavailable", message: "the database is unavailable; try again later")
        }
        return APIError(.internalServerError, code: "internal_error", message: "the server could not do this")
    }

    /// `duration` in milliseconds with two decimals ("12.34"), without `String(format:)`, which is slow on Linux.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let hundredths = seconds * 100_000 + attoseconds / 10_000_000_000_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
