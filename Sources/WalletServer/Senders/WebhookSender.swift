import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Secrets
import WalletServices

/// Posts webhook deliveries to issuers' endpoints, each signed with its endpoint's secret (`WebhookSignature`)
/// and carrying its event's identifier (`Coffer-Event-Id`), so that a receiver can check it and de-duplicate.
///
/// Before each attempt it resolves the endpoint's host and connects only to an address it checked is public (an
/// endpoint whose name resolves to this machine or an internal network gets nothing); redirects are not followed,
/// answers are read to 64 KiB at most, and an attempt that has not finished, body included, within ``timeout`` is
/// cancelled and counts as failed.
package final class WebhookSender: WebhookPoster {

    /// How long one attempt may take, from resolving the host to the answer's last byte.
    package let timeout: TimeInterval
    /// Whether endpoints on this machine get deliveries (tests and local development only).
    package let allowsLoopback: Bool
    private let secrets: any SecretsDataStoring
    private let clock: any CofferClock
    /// Where endpoints' host names are resolved: a slow or silent name server (an issuer's DNS) delays only its own
    /// client's deliveries, and never past an attempt's deadline.
    private let resolver: WebhookHostResolver

    /// Creates a sender that reads endpoints' secrets from `secrets`; `allowsLoopback` lets deliveries reach this
    /// machine's own addresses.
    package init(
        secrets: any SecretsDataStoring, timeout: TimeInterval = 10, allowsLoopback: Bool = false,
        resolver: WebhookHostResolver = WebhookHostResolver(), clock: any CofferClock = SystemClock()
    ) {
        self.secrets = secrets
        self.timeout = timeout
        self.allowsLoopback = allowsLoopback
        self.resolver = resolver
        self.clock = clock
    }

    /// Posts `delivery` to its endpoint, signed now.
    package func send(_ delivery: PendingWebhook) async -> WebhookOutcome {
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
        let deadline = OverallDeadline(seconds: timeout)
        do {
            return try await deadline.run { [self, request] in
                try await post(request, to: delivery.url, for: delivery.clientID, deadline: deadline)
            }
        } catch is OverallDeadline.Passed {
            return .failed("the endpoint did not answer in full within \(Int(timeout.rounded())) s")
        } catch let refusal as Refusal {
            return .failed(refusal.reason)
        } catch {
            return .failed("no answer from the endpoint: \(type(of: error))")
        }
    }

    /// Resolves `url`'s host, picks an address deliveries may go to, and posts `request` to that address alone (the
    /// host name still names the server to TLS and in `Host`), through a client made for this one attempt.
    private func post(
        _ request: HTTPClientRequest, to url: String, for client: UUID, deadline: OverallDeadline
    ) async throws -> WebhookOutcome {
        // The host exactly as the HTTP client reads it from the URL, so that the address pinned below is the one it
        // connects to.
        guard let parsed = URL(string: url)?.host, !parsed.isEmpty else {
            throw Refusal(reason: "the endpoint's URL has no host")
        }
        let isIPv6Literal = parsed.hasPrefix("[") && parsed.hasSuffix("]")
        let host = isIPv6Literal ? String(parsed.dropFirst().dropLast()) : parsed
        let addresses: [IPAddress]
        do {
            addresses = try await resolver.addresses(of: host, for: client)
        } catch is IPAddress.ResolutionFailure {
            throw Refusal(reason: "the endpoint's host name does not resolve")
        } catch is WebhookHostResolver.Busy {
            throw Refusal(reason: "earlier lookups of this client's endpoint host names have not finished")
        }
        guard let address = addresses.first(where: isAllowed) else {
            throw Refusal(
                reason: "the endpoint's host resolves only to internal addresses "
                    + "(\(addresses.map(\.description).joined(separator: ", "))): deliveries go to public addresses only"
            )
        }
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(5), read: deadline.duration.timeAmount))
        configuration.httpVersion = .http1Only
        // An IPv6 literal is the address itself; any other host is pinned to the address just checked.
        if !isIPv6Literal { configuration.dnsOverride = [host: address.description] }
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        do {
            let response = try await client.execute(request, timeout: deadline.duration.timeAmount)
            _ = try? await response.body.collect(upTo: 64 * 1024)
            try? await client.shutdown()
            guard (200..<300).contains(response.status.code) else {
                return .failed("the endpoint answered \(response.status.code)")
            }
            return .delivered
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Whether deliveries may go to `address`: a public one, or this machine's when ``allowsLoopback``.
    private func isAllowed(_ address: IPAddress) -> Bool {
        switch address.scope {
        case .global: true
        case .loopback: allowsLoopback
        case .internal: false
        }
    }

    /// A delivery that is not attempted, and why.
    private struct Refusal: Error {
        var reason: String
    }
}
