import Hummingbird
import WalletServices

/// Answers the requests no route takes in the API's JSON error shape: `405 Method Not Allowed` with an `Allow` header
/// for a path the server has, asked with another method; `404` for a path it does not have.
///
/// Hummingbird's router answers both by throwing an empty `HTTPError(.notFound)` through its middleware chain, where
/// this middleware turns it into the API's answer. (The server's own routes throw ``APIError``, never `HTTPError`.)
struct UnmatchedRequestMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The methods each path answers, by path (`/health`: GET); a `{name}` segment stands for any one segment.
    let methods: [String: [HTTPRequest.Method]]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let allowed = methods[request.uri.path] ?? patternMethods(request.uri.path) else {
                throw APIError.notFound("the server has no such path")
            }
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            throw APIError(
                .methodNotAllowed, code: "method_not_allowed", message: "this path answers \(list) only",
                headers: [.allow: list])
        }
    }

    /// The methods of the pattern with `{name}` segments that `path` fits, if one does.
    private func patternMethods(_ path: String) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return methods.first { pattern, _ in
            let parts = pattern.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == segments.count && pattern.contains("{")
                && zip(parts, segments).allSatisfy { part, segment in
                    part.hasPrefix("{") ? !segment.isEmpty : part == segment
                }
        }?.value
    }
}
