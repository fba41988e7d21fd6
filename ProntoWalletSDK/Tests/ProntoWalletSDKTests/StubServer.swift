import Foundation
@testable import ProntoWalletSDK

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stand-in for the network, installed as the URL sessions' only protocol: each test registers the answers of
/// its own host, so tests run in parallel without seeing each other's requests.
final class StubURLProtocol: URLProtocol {
    /// What a stubbed host answers: a status, headers and a body, or a transport error.
    enum Answer: Sendable {
        case http(status: Int, headers: [String: String] = ["Content-Type": "application/json"], body: Data)
        case failure(URLError)
        /// No answer at all, as from a server that hangs.
        case silence
    }

    /// A request as the stub received it.
    struct Received: Sendable {
        let request: URLRequest
        let body: Data
    }

    private static let answers = Protected([String: @Sendable (Received) -> Answer]())
    private static let received = Protected([String: [Received]]())

    /// A new host whose requests `answer` handles.
    static func host(answering answer: @escaping @Sendable (Received) -> Answer) -> String {
        let host = "stub-\(UUID().uuidString.lowercased()).example"
        answers.withLock { $0[host] = answer }
        return host
    }

    /// The requests a host has received, oldest first.
    static func requests(to host: String) -> [Received] {
        received.withLock { $0[host] ?? [] }
    }

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let host = request.url?.host ?? ""
        let received = Received(request: request, body: Self.body(of: request))
        Self.received.withLock { $0[host, default: []].append(received) }
        guard let answer = Self.answers.withLock({ $0[host] }) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
            return
        }
        switch answer(received) {
        case .silence:
            break
        case .failure(let error):
            client?.urlProtocol(self, didFailWithError: error)
        case .http(let status, let headers, let body):
            let response = HTTPURLResponse(
                url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: body)
            client?.urlProtocolDidFinishLoading(self)
        }
    }

    override func stopLoading() {}

    private static func body(of request: URLRequest) -> Data {
        if let body = request.httpBody { return body }
        guard let stream = request.httpBodyStream else { return Data() }
        stream.open()
        defer { stream.close() }
        var body = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = stream.read(&buffer, maxLength: buffer.count), count > 0 {
            body.append(buffer, count: count)
        }
        return body
    }
}

extension ProntoWallet {
    /// An instance whose requests go to ``StubURLProtocol``, configured for `host`.
    static func stubbed(host: String, apiKey: String = "key-123", timeout: TimeInterval = 5) -> ProntoWallet {
        let wallet = ProntoWallet(sessionConfiguration: {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.protocolClasses = [StubURLProtocol.self]
            return configuration
        })
        wallet.configure(
            with: ProntoConfiguration(
                apiKey: apiKey, environment: .custom(URL(string: "https://\(host)")!), timeout: timeout))
        return wallet
    }
}

/// A server's successful answer.
enum Answers {
    static let issuerData = Data(#"{"sessionIdentifier":"42"}"#.utf8)
    static let signature = Data([0x30, 0x82, 0x01, 0x00])

    static func success(tagId: String = "tag-1", pass: WalletPassIdentity? = nil) -> StubURLProtocol.Answer {
        var body = [
            "issuer_data": issuerData.base64EncodedString(), "signature": signature.base64EncodedString(),
            "tag_id": tagId,
        ]
        if let pass {
            body["pass_type_identifier"] = pass.passTypeIdentifier
            body["serial_number"] = pass.serialNumber
        }
        return .http(status: 200, body: try! JSONSerialization.data(withJSONObject: body))
    }

    static func json(_ status: Int, _ text: String) -> StubURLProtocol.Answer {
        .http(status: status, body: Data(text.utf8))
    }
}
