import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Secrets

/// Posts webhook deliveries to issuers' endpoints, each signed with its endpoint's secret (``WebhookSignature``)
/// and carrying its event's identifier (`Coffer-Event-Id`), so that a receiver can check it and de-duplicate.
///
/// Redirects are not followed, answers are read to 64 KiB at most, and a delivery that gets no answer within
/// ``timeout`` counts as failed.
public final class WebhookSender: Sendable {
    /// What became of one attempt.
    public enum Outcome: Sendable, Hashable {
        /// The endpoint answered 2xx.
        case delivered
        /// It did not (another status, no answer, or the secret could not be read), and why.
        case failed(String)
    }

    /// How long an endpoint has to answer.
    public let timeout: TimeInterval
    private let secrets: any SecretsDataStoring
    private let client: HTTPClient
    private let clock: any CofferClock

    /// Creates a sender that reads endpoints' secrets from `secrets`.
    public init(secrets: any SecretsDataStoring, timeout: TimeInterval = 10, clock: any CofferClock = SystemClock()) {
        self.secrets = secrets
        self.timeout = timeout
        self.clock = clock
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(5), read: .milliseconds(Int64(timeout * 1000))))
        configuration.httpVersion = .http1Only
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// Posts `delivery` to its endpoint, signed now.
    public func send(_ delivery: PendingWebhook) async -> Outcome {
        let secret: String
        do {
            let store = secrets
            let path = WebhookEndpoint.secretPath(id: delivery.endpointID)
            guard
                let data = try await NIOThreadPool.singleton.runIfActive({ try store.readData(account: path) }),
                let text = String(data: data, encoding: .utf8)
            else { return .failed("the endpoint's signing secret is missing from the secret store") }
            secret = text
        } catch {
            return .failed("the endpoint's signing secret cannot be read")
        }
        var request = HTTPClientRequest(url: delivery.url)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "user-agent", value: "Coffer-Webhooks/1")
        request.headers.add(name: "coffer-event-id", value: delivery.eventID)
        request.headers.add(name: "coffer-event-type", value: delivery.eventType.rawValue)
        request.headers.add(
            name: WebhookSignature.header,
            value: WebhookSignature.header(for: delivery.payload, secret: secret, timestamp: clock.now))
        request.body = .bytes(ByteBuffer(bytes: delivery.payload))
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            guard (200..<300).contains(response.status.code) else {
                return .failed("the endpoint answered \(response.status.code)")
            }
            return .delivered
        } catch {
            return .failed("no answer from the endpoint: \(type(of: error))")
        }
    }

    /// Closes the client's connections.
    public func shutdown() async throws {
        try await client.shutdown()
    }
}
