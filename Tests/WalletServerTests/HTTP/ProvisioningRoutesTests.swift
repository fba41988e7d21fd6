import CofferTestSupport
import Foundation
import Secrets
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Logging
import SQLKit
import Testing
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

@Suite("The provisioning API, in process: the spec's cases and the bad-input ones")
struct ProvisioningRoutesTests {
    /// Runs `body` with a test client of the application over a fresh world, and the world's API token.
    func withClient(
        _ engine: Engine, logger: Logger = Logger(label: "test"),
        issuanceLimiter: RateLimiter<UUID> = RateLimiter<UUID>(limit: .default),
        _ body: @Sendable (any TestClientProtocol, ProvisioningWorld, String) async throws -> Void
    ) async throws {
        try await ProvisioningWorld.withClient(engine, body) { world in
            WalletServerApplication.makeRouter(
                repository: world.repository, service: world.service, logger: logger, issuanceLimiter: issuanceLimiter)
        }
    }

    static func json(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    @Test("happy path: issuer data, then the callback answers a signed, bound .pkpass", arguments: Engine.available)
    func happyPath(_ engine: Engine) async throws {
        try await withClient(engine) { client, world, token in
            let issued = try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                body: Self.json(#"{"tag_id":"PASS-001"}"#)
            ) { response in
                #expect(response.status == .ok)
                return try JSONDecoder().decode([String: String].self, from: Data(response.body.readableBytesView))
            }
            #expect(issued["tag_id"] == world.tag.id.uuidString)
            #expect(issued["pass_type_identifier"] == "pass.dev.coffer.server", "so that the app finds it in Wallet")
            #expect(issued["serial_number"] == "PASS-001")
            let data = try #require(issued["issuer_data"].flatMap { Data(base64Encoded: $0) })
            let binding = try JSONDecoder().decode(IssuerBindingData.self, from: data)
            let openssl = try OpenSSL.verify(
                signature: try #require(issued["signature"].flatMap { Data(base64Encoded: $0) }), content: data,
                root: Data(try ProvisioningWorld.identity.rootPEM.utf8), in: world.directory)
            #expect(openssl.status == 0, "\(openssl.errorOutput)")

            let callback = "/api/v2/in_app_provisioning/callback?sessionIdentifier=\(binding.sessionIdentifier)"
            let body = #"{"issuerBindingData":"0a0b","keyHash":"c0ffee"}"#
            let pkpass = try await client.execute(
                uri: callback, method: .post, headers: [.contentType: "application/json"], body: Self.json(body)
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/vnd.apple.pkpass")
                return Data(response.body.readableBytesView)
            }
            let verified = try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(
                pkpass: pkpass)
            #expect(verified.pass.fidoProfile?.keyHash == "c0ffee")
            let bound = try OpenSSL.verify(
                pkpass: pkpass, root: Data(try ProvisioningWorld.identity.rootPEM.utf8), in: world.directory)
            #expect(bound.outcome.status == 0, "\(bound.outcome.errorOutput)")
            // Replaying the same callback is refused.
            try await client.execute(uri: callback, method: .post, body: Self.json(body)) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test(
        "an invalid, revoked or missing token is 401 with a challenge, and the token is never echoed",
        arguments: Engine.available)
    func unauthorized(_ engine: Engine) async throws {
        try await withClient(engine) { client, world, token in
            for headers in [
                ProvisioningAPI.headers(token: "not-a-token"),
                HTTPFields([HTTPField(name: .contentType, value: "application/json")]),
                ProvisioningAPI.headers(token: ""),
            ] {
                try await client.execute(
                    uri: ProvisioningAPI.issuerData, method: .post, headers: headers,
                    body: Self.json(#"{"tag_id":"PASS-001"}"#)
                ) {
                    response in
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.wwwAuthenticate] != nil)
                    #expect(!String(buffer: response.body).contains("not-a-token"))
                }
            }
            let revoked = try await world.repository.createAPIUser(clientID: world.apiUser.clientID, name: "old")
            _ = try await world.repository.revokeAPIUser(id: revoked.apiUser.id)
            try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: revoked.token),
                body: Self.json(#"{"tag_id":"PASS-001"}"#)
            ) { response in #expect(response.status == .unauthorized) }
        }
    }

    @Test("a missing tag, another client's tag and a tag without a pass are all 404", arguments: Engine.available)
    func notFound(_ engine: Engine) async throws {
        try await withClient(engine) { client, world, token in
            let other = try await world.repository.createClient(name: "Other")
            let otherToken = try await world.repository.createAPIUser(clientID: other.id, name: "o").token
            let user = try await world.repository.createUser(clientID: world.apiUser.clientID, externalReference: nil)
            try await world.repository.createTag(
                ClientTag(clientID: world.apiUser.clientID, userID: user.id, referenceID: "NOPASS"))
            let cases: [(String, String)] = [
                (token, #"{"tag_id":"MISSING"}"#), (otherToken, #"{"tag_id":"PASS-001"}"#),
                (token, #"{"tag_id":"NOPASS"}"#),
                (token, #"{"tag_id":"PASS-001","id_attribute":"subscription_id"}"#),
            ]
            for (caller, body) in cases {
                let answer = try await Answer.send(
                    client, .post, ProvisioningAPI.issuerData, headers: ProvisioningAPI.headers(token: caller),
                    body: body)
                #expect(answer.status == .notFound, "\(body)")
                #expect(answer.errorCode == "not_found")
            }
        }
    }

    @Test(
        "a missing or garbled body is 400, as are an unknown or null id_attribute and a non-string tag_id",
        arguments: Engine.available)
    func badRequests(_ engine: Engine) async throws {
        try await withClient(engine) { client, _, token in
            for body in [
                "", "{", #"{"id_attribute":"reference_id"}"#, #"{"tag_id": 5}"#,
                #"{"tag_id":"A","id_attribute":"email"}"#, #"{"tag_id":"PASS-001","id_attribute":null}"#,
                #"{"tag_id":null}"#, #"{"tag_id":"PASS-001","id_attribute":7}"#,
            ] {
                try await client.execute(
                    uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                    body: Self.json(body)
                ) {
                    response in #expect(response.status == .badRequest, "\(body)")
                }
            }
            let callback = "/api/v2/in_app_provisioning/callback"
            try await client.execute(uri: callback + "?sessionIdentifier=x", method: .post, body: Self.json("{}")) {
                response in
                #expect(response.status == .badRequest)
            }
            for query in ["", "?sessionIdentifier=", "?sessionIdentifier=" + String(repeating: "a", count: 257)] {
                try await client.execute(
                    uri: callback + query, method: .post,
                    body: Self.json(#"{"issuerBindingData":"00","keyHash":"00"}"#)
                ) {
                    response in #expect(response.status == .badRequest, "\(query.prefix(30))")
                }
            }
        }
    }

    /// Retry-After is in whole seconds and the error has the API's JSON shape; after the wait the token is served again.
    @Test(
        "over its limit a token gets a JSON 429 with Retry-After; other tokens are unaffected; it recovers",
        arguments: Engine.available)
    func rateLimited(_ engine: Engine) async throws {
        let clock = ManualClock()
        let limiter = RateLimiter<UUID>(limit: RateLimit(perMinute: 2, burst: 2), clock: clock)
        try await withClient(engine, issuanceLimiter: limiter) { client, world, token in
            let body = Self.json(#"{"tag_id":"PASS-001"}"#)
            // Every authenticated request counts, a 404 as well as a 200.
            try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                body: Self.json(#"{"tag_id":"NONE"}"#)
            ) { #expect($0.status == .notFound) }
            try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                body: body
            ) {
                #expect($0.status == .ok)
            }
            try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                body: body
            ) {
                response in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter] == "30")
                let error = try JSONDecoder().decode(ErrorBody.self, from: Data(response.body.readableBytesView))
                #expect(error.error.status == 429)
                #expect(error.error.code == "rate_limited")
                #expect(!error.error.message.contains(token))
            }
            // Unauthenticated requests are not counted against anyone: they are 401.
            try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: "forged"),
                body: body
            ) {
                #expect($0.status == .unauthorized)
            }
            let other = try await world.repository.createAPIUser(clientID: world.apiUser.clientID, name: "other")
            try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: other.token),
                body: body
            ) {
                #expect($0.status == .ok)
            }
            clock.advance(by: .seconds(29))
            try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                body: body
            ) {
                #expect($0.status == .tooManyRequests)
                #expect($0.headers[.retryAfter] == "1")
            }
            clock.advance(by: .seconds(1))
            try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                body: body
            ) {
                #expect($0.status == .ok)
            }
        }
    }

    @Test(
        "a second issuance for a pass ends the first's session (its callback is 404); the second's completes",
        arguments: Engine.available)
    func newIssuanceEndsOlderSessions(_ engine: Engine) async throws {
        try await withClient(engine) { client, _, token in
            var sessions: [String] = []
            for _ in 0..<2 {
                let issued = try await client.execute(
                    uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                    body: Self.json(#"{"tag_id":"PASS-001"}"#)
                ) { response in
                    #expect(response.status == .ok)
                    return try JSONDecoder().decode([String: String].self, from: Data(response.body.readableBytesView))
                }
                let data = try #require(issued["issuer_data"].flatMap { Data(base64Encoded: $0) })
                sessions.append(try JSONDecoder().decode(IssuerBindingData.self, from: data).sessionIdentifier)
            }
            #expect(sessions[0] != sessions[1])
            let body = Self.json(#"{"issuerBindingData":"0a0b","keyHash":"c0ffee"}"#)
            func callback(_ session: String) -> String {
                "/api/v2/in_app_provisioning/callback?sessionIdentifier=\(session)"
            }
            let unknown = try await client.execute(uri: callback("forged"), method: .post, body: body) {
                String(buffer: $0.body)
            }
            try await client.execute(uri: callback(sessions[0]), method: .post, body: body) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body) == unknown)
            }
            try await client.execute(uri: callback(sessions[1]), method: .post, body: body) {
                #expect($0.status == .ok)
            }
        }
    }

    @Test("an unknown callback session is 404", arguments: Engine.available)
    func unknownSession(_ engine: Engine) async throws {
        try await withClient(engine) { client, _, _ in
            try await client.execute(
                uri: "/api/v2/in_app_provisioning/callback?sessionIdentifier=forged", method: .post,
                body: Self.json(#"{"issuerBindingData":"00","keyHash":"00"}"#)
            ) { response in #expect(response.status == .notFound) }
        }
    }

    @Test(
        "another method on a known path is 405 with Allow, an unknown path 404, both in the API's JSON shape",
        arguments: [
            ("/api/v2/in_app_provisioning/issuer_data", HTTPRequest.Method.get, HTTPResponse.Status.methodNotAllowed),
            ("/api/v2/in_app_provisioning/issuer_data", .trace, .methodNotAllowed),
            ("/api/v2/in_app_provisioning/callback", .put, .methodNotAllowed),
            ("/health", .post, .methodNotAllowed),
            ("/api/v2/in_app_provisioning/nothing", .post, .notFound),
            ("/", .get, .notFound),
        ])
    func unmatchedRequests(_ path: String, _ method: HTTPRequest.Method, _ status: HTTPResponse.Status) async throws {
        try await withClient(.sqliteFile) { client, _, _ in
            try await client.execute(uri: path, method: method) { response in
                #expect(response.status == status)
                let body = try JSONDecoder().decode(ErrorBody.self, from: Data(response.body.readableBytesView))
                #expect(body.error.status == status.code)
                if status == .methodNotAllowed {
                    #expect(body.error.code == "method_not_allowed")
                    #expect(response.headers[.allow] == (path == "/health" ? "GET" : "POST"))
                } else {
                    #expect(body.error.code == "not_found")
                }
            }
        }
    }

    @Test("GET /health answers ok")
    func health() async throws {
        try await withClient(.sqliteFile) { client, _, _ in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"status":"ok"}"#)
            }
        }
    }

    @Test("a database that went away answers 503 in the API's JSON shape, and /health still answers")
    func databaseGone() async throws {
        try await withClient(.sqliteFile) { client, world, token in
            try await world.database.shutdown()
            try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                body: Self.json(#"{"tag_id":"PASS-001"}"#)
            ) { response in
                #expect(response.status == .serviceUnavailable)
                let body = try JSONDecoder().decode(ErrorBody.self, from: Data(response.body.readableBytesView))
                #expect(body.error.status == 503)
                #expect(body.error.code == "unavailable")
            }
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test(
        "a PostgreSQL database dropped under the server answers 503, promptly, request after request",
        .enabled(if: Engine.postgresURL != nil))
    func postgresDropped() async throws {
        try await withClient(.postgres) { client, world, token in
            let name = try #require(URLComponents(string: world.databaseURL)?.path.dropFirst())
            try await Engine.withServer {
                try await $0.sql.raw("DROP DATABASE \(unsafeRaw: String(name)) WITH (FORCE)").run()
            }
            for _ in 0..<3 {
                try await client.execute(
                    uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                    body: Self.json(#"{"tag_id":"PASS-001"}"#)
                ) { response in
                    #expect(response.status == .serviceUnavailable)
                }
            }
        }
    }

    @Test("JSON request logs carry id, path, status and latency, and never a token or a session identifier")
    func requestLogs() async throws {
        let lines = Recorder()
        let logger = Logger(label: "test") { label in
            JSONLogHandler(label: label) { lines.append(String(decoding: $0, as: UTF8.self)) }
        }
        try await withClient(.sqliteFile, logger: logger) { client, world, token in
            let issued = try await client.execute(
                uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: token),
                body: Self.json(#"{"tag_id":"PASS-001"}"#)
            ) { response in
                try JSONDecoder().decode([String: String].self, from: Data(response.body.readableBytesView))
            }
            let data = try #require(issued["issuer_data"].flatMap { Data(base64Encoded: $0) })
            let session = try JSONDecoder().decode(IssuerBindingData.self, from: data).sessionIdentifier
            try await client.execute(
                uri: "/api/v2/in_app_provisioning/callback?sessionIdentifier=\(session)", method: .post,
                body: Self.json(#"{"issuerBindingData":"0a0b","keyHash":"c0ffee"}"#)
            ) { #expect($0.status == .ok) }

            let requests = try lines.values.map { try JSONDecoder().decode([String: String].self, from: Data($0.utf8)) }
                .filter { $0["message"] == "request" }
            #expect(requests.map { $0["status"] } == ["200", "200"])
            #expect(
                requests.map { $0["path"] } == [ProvisioningAPI.issuerData, "/api/v2/in_app_provisioning/callback"])
            for request in requests {
                #expect(request["request_id"]?.isEmpty == false)
                #expect(request["route"] == request["path"])
                #expect(request["latency_ms"].flatMap(Double.init) != nil)
                #expect(request["level"] == "info")
            }
            let everything = lines.values.joined()
            #expect(!everything.contains(token))
            #expect(!everything.contains(session))
        }
    }

    struct ErrorBody: Decodable {
        struct Detail: Decodable {
            let status: Int
            let code: String
            let message: String
        }
        let error: Detail
    }
}
