import Foundation
import HTTPTypes

/// What carries token requests: ``URLSessionTransport`` in apps and servers, anything else behind a company
/// proxy or an HTTP client of your choice. Requests and responses are swift-http-types' `HTTPRequest` and
/// `HTTPResponse`.
///
/// Throw for a request that got no HTTP answer (the authenticator retries those); return every answer, whatever
/// its status.
public protocol HTTPTransport: Sendable {
    /// Sends `request` with `body` and returns the server's answer and its body.
    func send(_ request: HTTPRequest, body: Data) async throws -> (HTTPResponse, Data)
}
