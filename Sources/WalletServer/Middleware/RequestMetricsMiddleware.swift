import Hummingbird
import WalletServices

/// Counts every request by route pattern and status, and records its latency, in a `ServerMetrics`.
///
/// It runs first, so that it sees the status the client gets: an error a route or another middleware throws is
/// counted with the status it will be answered with (500 for one that is not an HTTP error). The route is the
/// pattern the router matched (`RequestContext.endpointPath`), never the path itself, which is unbounded and may
/// carry identifiers; a request no route took counts under `ServerMetrics/unmatchedRoute`.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let table: RequestMetricsTable

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            table.route(context.endpointPath).record(
                status: response.status.code, duration: ContinuousClock.now - started)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            table.route(context.endpointPath).record(status: status, duration: ContinuousClock.now - started)
            throw error
        }
    }
}
