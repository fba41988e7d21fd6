import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A real OAuth 2.0 token endpoint and a protected API, served by Hummingbird on a loopback port for the length
/// of a test. It issues `access-N` tokens, rotates `refresh-N` tokens when asked, and answers from a plan of
/// failures first when given one.
actor TokenServer {
    /// One request the token endpoint received.
    struct Received: Sendable {
        let form: [String: String]
        let authorization: String?
    }

    /// An answer to give instead of a token.
    struct Planned: Sendable {
        var status: HTTPResponse.Status
        var body: String
        var headers: [String: String] = [:]
    }

    private(set) var received: [Received] = []
    var plan: [Planned] = []
    var expiresIn: String? = "3600"
    var rotatesRefreshTokens = false
    var delay: Duration = .zero
    var clientID = "reports"
    var clientSecret = "s3cr3t:/+ é"
    /// Revoke each token after the API accepted it once (to exercise a client's retry on 401).
    var revokesAfterFirstUse = false
    private(set) var currentRefreshToken = "refresh-0"
    private var issued: Set<String> = []
    private var counter = 0

    func configure(_ change: @Sendable (isolated TokenServer) -> Void) { change(self) }

    /// The token endpoint's answer to one request.
    func answer(form: [String: String], authorization: String?) async -> (HTTPResponse.Status, [String: String], String)
    {
        received.append(Received(form: form, authorization: authorization))
        if delay > .zero { try? await Task.sleep(for: delay) }
        if !plan.isEmpty {
            let next = plan.removeFirst()
            return (next.status, next.headers, next.body)
        }
        guard authenticates(form: form, authorization: authorization) else {
            return (.unauthorized, ["WWW-Authenticate": #"Basic realm="token""#], #"{"error":"invalid_client"}"#)
        }
        switch form["grant_type"] {
        case "client_credentials":
            break
        case "refresh_token":
            guard form["refresh_token"] == currentRefreshToken else {
                return (
                    .badRequest, [:], #"{"error":"invalid_grant","error_description":"the refresh token is unknown"}"#
                )
            }
        case "urn:ibm:params:oauth:grant-type:apikey":
            guard form["apikey"] == "api-key-1" else { return (.badRequest, [:], #"{"error":"invalid_grant"}"#) }
        default:
            return (.badRequest, [:], #"{"error":"unsupported_grant_type"}"#)
        }
        counter += 1
        let token = "access-\(counter)"
        issued.insert(token)
        var fields = [#""access_token":"\#(token)""#, #""token_type":"Bearer""#]
        if let expiresIn { fields.append(#""expires_in":\#(expiresIn)"#) }
        if let scope = form["scope"] { fields.append(#""scope":"\#(scope)""#) }
        if form["grant_type"] == "refresh_token", rotatesRefreshTokens {
            currentRefreshToken = "refresh-\(counter)"
            fields.append(#""refresh_token":"\#(currentRefreshToken)""#)
        }
        return (.ok, [:], "{" + fields.joined(separator: ",") + "}")
    }

    /// Whether a bearer token is one the endpoint issued.
    func accepts(bearer: String?) -> Bool {
        guard let bearer, bearer.hasPrefix("Bearer ") else { return false }
        let token = String(bearer.dropFirst(7))
        guard issued.contains(token) else { return false }
        if revokesAfterFirstUse { issued.remove(token) }
        return true
    }

    /// Revokes every issued token (the API then answers 401).
    func revokeAll() { issued.removeAll() }

    private func authenticates(form: [String: String], authorization: String?) -> Bool {
        if form["grant_type"] == "urn:ibm:params:oauth:grant-type:apikey" { return true }
        if let authorization, authorization.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6))).map({
                String(decoding: $0, as: UTF8.self)
            }),
            let colon = decoded.firstIndex(of: ":")
        {
            let id = String(decoded[..<colon]).removingPercentEncoding
            let secret = String(decoded[decoded.index(after: colon)...]).replacingOccurrences(of: "+", with: " ")
                .removingPercentEncoding
            return id == clientID && secret == clientSecret
        }
        if let id = form["client_id"] {
            return id == clientID && (form["client_secret"] == clientSecret || form["grant_type"] == "refresh_token")
        }
        return form["grant_type"] == "refresh_token"
    }

    /// Runs `body` with the server listening on a loopback port; `body` gets the token endpoint's and the API's URLs.
    func serve(_ body: @Sendable (_ tokenURL: URL, _ apiURL: URL) async throws -> Void) async throws {
        let router = Router()
        router.post("oauth/token") { request, context -> Response in
            var buffer = try await request.body.collect(upTo: 64 * 1024)
            let text = buffer.readString(length: buffer.readableBytes) ?? ""
            let (status, headers, body) = await self.answer(
                form: Self.parseForm(text), authorization: request.headers[.authorization])
            var fields = HTTPFields()
            fields[.contentType] = "application/json"
            for (name, value) in headers { if let field = HTTPField.Name(name) { fields[field] = value } }
            return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        router.get("api/hello") { request, context -> Response in
            guard await self.accepts(bearer: request.headers[.authorization]) else {
                return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer"])
            }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "hello")))
        }
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            .test(.live) { client in
                let port = try #require(client.port)
                try await body(
                    URL(string: "http://127.0.0.1:\(port)/oauth/token")!, URL(string: "http://127.0.0.1:\(port)/api")!)
            }
    }

    /// Reads `application/x-www-form-urlencoded`.
    static func parseForm(_ text: String) -> [String: String] {
        var form: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            form[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return form
    }
}
