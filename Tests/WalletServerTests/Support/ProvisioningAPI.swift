import CofferTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting

/// The provisioning API as the tests call it: its paths and the headers an API client sends.
enum ProvisioningAPI {
    /// `POST`: issuer data for a tag.
    static let issuerData = "/api/v2/in_app_provisioning/issuer_data"
    /// `POST`: the device's callback, which answers the bound pass.
    static let callback = "/api/v2/in_app_provisioning/callback"

    /// JSON request headers authenticated by the API token `token` (HTTP Basic, the token as user name).
    static func headers(token: String) -> HTTPFields {
        [.authorization: HTTPBasic.authorization(user: token), .contentType: "application/json"]
    }
}

/// What a route answered.
struct Answer: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: Data

    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The body as a JSON object (empty when it is not one).
    var object: [String: Any] { (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:] }
    /// The body as a JSON object of strings.
    func json() throws -> [String: String] { try JSONDecoder().decode([String: String].self, from: body) }
    /// The code of an error body (`{"error":{"code":…}}`); nil when the body is not one.
    var errorCode: String? {
        let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        return (object?["error"] as? [String: Any])?["code"] as? String
    }

    /// Sends a request through `client` and collects what it answered.
    static func send(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:],
        body: String? = nil
    ) async throws -> Answer {
        try await client.execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }
        ) { response in
            Answer(status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
        }
    }
}
