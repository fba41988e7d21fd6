import Foundation
import Testing

@testable import ProntoWalletSDK

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Talking to the server: the request the SDK sends and how it reads every answer")
struct APIClientTests {
    @Test("the request: POST to the issuer-data path, Basic auth with the key as user name, a JSON body")
    func requestShape() async throws {
        let host = StubURLProtocol.host { _ in Answers.success() }
        let wallet = ProntoWallet.stubbed(host: host, apiKey: "token-abc")
        _ = try await wallet.issuerData(for: "TICKET-1", idAttribute: .subscriptionId)

        let received = try #require(StubURLProtocol.requests(to: host).first)
        #expect(received.request.httpMethod == "POST")
        #expect(received.request.url?.absoluteString == "https://\(host)/api/v2/in_app_provisioning/issuer_data")
        let expectedAuthorization = "Basic " + Data("token-abc:".utf8).base64EncodedString()
        #expect(received.request.value(forHTTPHeaderField: "Authorization") == expectedAuthorization)
        #expect(received.request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(received.request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(received.request.value(forHTTPHeaderField: "X-Request-ID")?.count == 36)
        let body = try JSONSerialization.jsonObject(with: received.body) as? [String: String]
        #expect(body == ["tag_id": "TICKET-1", "id_attribute": "subscription_id"])
    }

    @Test("the id attribute defaults to reference_id, and a tag ID is sent as it is")
    func defaultAttribute() async throws {
        let host = StubURLProtocol.host { _ in Answers.success() }
        _ = try await ProntoWallet.stubbed(host: host).issuerData(for: #"a "quoted"/tag ✓"#)
        let body = try #require(StubURLProtocol.requests(to: host).first?.body)
        let fields = try JSONSerialization.jsonObject(with: body) as? [String: String]
        #expect(fields == ["tag_id": #"a "quoted"/tag ✓"#, "id_attribute": "reference_id"])
    }

    @Test(
        "tag_id is read as a string (WalletServer) or as an integer (the Rails controller renders tag.id)",
        arguments: [(#""tag-7""#, "tag-7"), ("42", "42"), ("9007199254740993", "9007199254740993")])
    func tagIdShapes(_ json: String, _ expected: String) async throws {
        let host = StubURLProtocol.host { _ in
            Answers.json(200, #"{"issuer_data":"AAEC","signature":"AAEC","tag_id":\#(json)}"#)
        }
        let issuerData = try await ProntoWallet.stubbed(host: host).issuerData(for: "t")
        #expect(issuerData.tagId == expected)
    }

    @Test(
        "the pass the server names is read when both its fields are non-empty strings, and ignored otherwise",
        arguments: [
            (#","pass_type_identifier":"pass.example","serial_number":"S-1""#, true),
            ("", false),
            (#","pass_type_identifier":"pass.example""#, false),
            (#","pass_type_identifier":"","serial_number":"S-1""#, false),
            (#","pass_type_identifier":"pass.example","serial_number":7"#, false),
        ])
    func passIdentity(_ extra: String, _ named: Bool) async throws {
        let host = StubURLProtocol.host { _ in
            Answers.json(200, #"{"issuer_data":"AAEC","signature":"AAEC","tag_id":"t"\#(extra)}"#)
        }
        let issuerData = try await ProntoWallet.stubbed(host: host).issuerData(for: "t")
        #expect(
            issuerData.pass
                == (named ? WalletPassIdentity(passTypeIdentifier: "pass.example", serialNumber: "S-1") : nil))
    }

    @Test("a custom server's path is kept as a prefix")
    func customPrefix() throws {
        let client = APIClient(
            configuration: ProntoConfiguration(
                apiKey: "k", environment: .custom(URL(string: "https://example.com/pronto/")!)))
        defer { client.invalidate() }
        let request = try client.makeRequest(tagId: "t", idAttribute: .referenceId)
        #expect(request.url?.absoluteString == "https://example.com/pronto/api/v2/in_app_provisioning/issuer_data")
        #expect(request.timeoutInterval == 30)
    }

    @Test("a development host that is not a host is a network error (bad URL), and nothing is sent")
    func badDevelopmentHost() async throws {
        let wallet = ProntoWallet()
        wallet.configure(with: ProntoConfiguration(apiKey: "k", environment: .development(host: "not a host")))
        await #expect {
            _ = try await wallet.issuerData(for: "t")
        } throws: { error in
            guard case .networkError(let underlying) = error as? ProvisioningError else { return false }
            return (underlying as? URLError)?.code == .badURL
        }
    }

    @Test("a successful answer gives the issuer data, decoded and as PassKit takes it")
    func success() async throws {
        let host = StubURLProtocol.host { _ in Answers.success(tagId: "TICKET-9") }
        let issued = try await ProntoWallet.stubbed(host: host).issuerData(for: "TICKET-9")
        #expect(issued.tagId == "TICKET-9")
        #expect(issued.issuerData == Answers.issuerData)
        #expect(issued.signature == Answers.signature)
        #expect(issued.passKitIssuerData == Data(Answers.issuerData.base64EncodedString().utf8))
        #expect(issued.passKitSignature == Data(Answers.signature.base64EncodedString().utf8))
    }

    /// An answer and the error it must become.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let answer: StubURLProtocol.Answer
        let matches: @Sendable (ProvisioningError) -> Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "401", answer: Answers.json(401, #"{"error":{"message":"invalid token"}}"#)) {
            if case .notAuthorized = $0 { true } else { false }
        },
        Case(name: "403", answer: Answers.json(403, "{}")) { if case .notAuthorized = $0 { true } else { false } },
        Case(name: "404", answer: Answers.json(404, #"{"error":"Pass not found"}"#)) {
            if case .notFound = $0 { true } else { false }
        },
        Case(
            name: "429 with Retry-After in seconds",
            answer: .http(status: 429, headers: ["Retry-After": "17"], body: Data(#"{"error":{}}"#.utf8))
        ) { if case .rateLimited(retryAfter: 17) = $0 { true } else { false } },
        Case(
            name: "429 with Retry-After as a date in the past",
            answer: .http(
                status: 429, headers: ["Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"], body: Data("{}".utf8))
        ) { if case .rateLimited(retryAfter: 0) = $0 { true } else { false } },
        Case(name: "429 without Retry-After", answer: Answers.json(429, "{}")) {
            if case .rateLimited(retryAfter: nil) = $0 { true } else { false }
        },
        Case(name: "400 with WalletServer's error shape", answer: Answers.json(400, #"{"error":{"message":"bad"}}"#)) {
            if case .serverError(400, "bad") = $0 { true } else { false }
        },
        Case(name: "422 with Rails' error shape", answer: Answers.json(422, #"{"error":"Unprocessable"}"#)) {
            if case .serverError(422, "Unprocessable") = $0 { true } else { false }
        },
        Case(name: "500 with a message field", answer: Answers.json(500, #"{"message":"boom"}"#)) {
            if case .serverError(500, "boom") = $0 { true } else { false }
        },
        Case(name: "503 with an HTML body", answer: Answers.json(503, "<html>down</html>")) {
            if case .serverError(503, nil) = $0 { true } else { false }
        },
        Case(name: "200 that is not JSON", answer: Answers.json(200, "<html>")) {
            if case .invalidResponse = $0 { true } else { false }
        },
        Case(name: "200 without a signature", answer: Answers.json(200, #"{"issuer_data":"AAEC","tag_id":"t"}"#)) {
            if case .invalidResponse = $0 { true } else { false }
        },
        Case(
            name: "200 whose issuer data is not base64",
            answer: Answers.json(200, #"{"issuer_data":"%%%","signature":"AAEC","tag_id":"t"}"#)
        ) { if case .invalidResponse = $0 { true } else { false } },
        Case(
            name: "200 with an empty signature",
            answer: Answers.json(200, #"{"issuer_data":"AAEC","signature":"","tag_id":"t"}"#)
        ) { if case .invalidResponse = $0 { true } else { false } },
        Case(
            name: "200 whose tag_id is neither a string nor an integer",
            answer: Answers.json(200, #"{"issuer_data":"AAEC","signature":"AAEC","tag_id":1.5}"#)
        ) { if case .invalidResponse = $0 { true } else { false } },
        Case(name: "200 with a JSON array", answer: Answers.json(200, "[]")) {
            if case .invalidResponse = $0 { true } else { false }
        },
        Case(name: "connection refused", answer: .failure(URLError(.cannotConnectToHost))) {
            if case .networkError(let error) = $0 { (error as? URLError)?.code == .cannotConnectToHost } else { false }
        },
        Case(name: "timeout", answer: .failure(URLError(.timedOut))) {
            if case .networkError(let error) = $0 { (error as? URLError)?.code == .timedOut } else { false }
        },
    ]

    @Test("every answer maps to its error", arguments: cases)
    func errorMapping(_ testCase: Case) async throws {
        let host = StubURLProtocol.host { _ in testCase.answer }
        await #expect {
            _ = try await ProntoWallet.stubbed(host: host).issuerData(for: "t")
        } throws: { error in
            (error as? ProvisioningError).map(testCase.matches) ?? false
        }
    }

    @Test("a long server message is cut to 500 characters")
    func longMessage() throws {
        let body = try JSONSerialization.data(withJSONObject: ["message": String(repeating: "x", count: 10_000)])
        let message = try #require(ServerErrorMessage.message(in: body))
        #expect(message.count == ServerErrorMessage.maximumLength + 1)
    }

    @Test("an answer that is not HTTP is an invalid response")
    func notHTTP() {
        let response = URLResponse(
            url: URL(string: "https://x.example")!, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
        #expect(throws: ProvisioningError.self) { try APIClient.issuerData(from: Data(), response: response) }
    }
}
