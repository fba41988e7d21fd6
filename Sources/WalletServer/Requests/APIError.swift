import Foundation
import Hummingbird
import WalletDocuments
import WalletPasses
import WalletServices

/// An API error with the stable JSON shape every route answers with:
/// `{"error": {"status": 404, "code": "not_found", "message": "…"}}`. Messages never echo a token or a key.
package struct APIError: HTTPResponseError, Sendable {
    /// The HTTP status.
    package let status: HTTPResponse.Status
    /// A stable machine-readable code.
    package let code: String
    /// A sentence for people.
    package let message: String
    /// Extra headers (for example `WWW-Authenticate` on 401).
    package let headers: HTTPFields
    /// What `PassLint` found in a pass the request would make (`invalid_pass`); written as `error.findings`.
    package let findings: [LintFinding]

    /// Creates an error.
    package init(
        _ status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:],
        findings: [LintFinding] = []
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.findings = findings
    }

    /// The response body and headers.
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(
            Body(
                error: .init(
                    status: status.code, code: code, message: message, findings: findings.isEmpty ? nil : findings)))
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private struct Body: Encodable {
        struct Detail: Encodable {
            let status: Int
            let code: String
            let message: String
            let findings: [LintFinding]?
        }
        let error: Detail
    }

    /// 401 with a `WWW-Authenticate` challenge.
    static let unauthorized = APIError(
        .unauthorized, code: "unauthorized",
        message: "send HTTP Basic authentication with an API token as the user name",
        headers: [.wwwAuthenticate: #"Basic realm="coffer""#])

    /// 404.
    static func notFound(_ message: String) -> APIError { APIError(.notFound, code: "not_found", message: message) }

    /// 429 with a `Retry-After` header of `seconds` (whole seconds, at least 1).
    static func rateLimited(retryAfter seconds: Int) -> APIError {
        APIError(
            .tooManyRequests, code: "rate_limited",
            message: "this API token has asked for issuer data too often; try again in \(seconds) s",
            headers: [.retryAfter: String(seconds)])
    }

    /// 400.
    static func badRequest(_ message: String) -> APIError {
        APIError(.badRequest, code: "bad_request", message: message)
    }
}
