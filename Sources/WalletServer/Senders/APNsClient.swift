import Secrets
import WalletDocuments
import WalletServices
import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Sends pass update pushes to APNs over HTTP/2: `POST /3/device/<push token>` with `apns-topic` set to the pass
/// type identifier, `apns-push-type: background`, `apns-priority: 5` and the empty payload `{}` Wallet expects, and
/// tells what became of each (`APNsPushOutcome`).
///
/// It keeps one `HTTPClient` (one HTTP/2 connection, many streams) per TLS identity: one for token authentication,
/// or one per pass type certificate; a pass type whose certificate was renewed gets a new client, and the old one is
/// closed at ``shutdown()``. Call ``shutdown()`` once, when no push is being sent any more.
///
/// Push tokens are checked (hex, 16 to 128 bytes) before they go into a URL, and never logged or put in an outcome.
public final class APNsClient: PushSender {
    /// How pushes are sent.
    public let configuration: APNsConfiguration
    private let token: APNsAuthenticationToken?
    private let logger: Logger

    private struct Clients {
        var token: HTTPClient?
        /// Per pass type identifier: the certificate's SHA-256 and the client that presents it.
        var certificates: [String: (fingerprint: Data, client: HTTPClient)] = [:]
        /// Clients replaced by a renewed certificate, closed at shutdown.
        var retired: [HTTPClient] = []
        var isShutDown = false
    }
    private let clients = Locked(Clients())

    /// The largest answer body read (Apple's are a few dozen bytes of JSON).
    static let maximumResponseBytes = 16 * 1024

    /// Creates a client; with token authentication, tokens are signed with the configuration's key and dated by
    /// `clock`.
    public init(
        configuration: APNsConfiguration, clock: any CofferClock = SystemClock(),
        logger: Logger = Logger(label: "coffer.server")
    ) {
        self.configuration = configuration
        if case .token(let key) = configuration.authentication {
            token = APNsAuthenticationToken(key: key, clock: clock)
        } else {
            token = nil
        }
        self.logger = logger
    }

    /// Whether `pushToken` looks like an APNs device token: an even number of hex digits, 16 to 128 bytes.
    package static func isValidPushToken(_ pushToken: String) -> Bool {
        pushToken.utf8.count >= 32 && Hex.isValid(pushToken, maximumLength: 256)
    }

    /// Sends one push to the device with `pushToken` for the pass type `topic` (its pass type identifier). With
    /// certificate authentication, `identity` is that pass type's signing identity (its certificate and key
    /// authenticate the connection); with token authentication it is not used.
    public func send(pushToken: String, topic: String, identity: SigningIdentity?) async -> APNsPushOutcome {
        await deliver(pushToken: pushToken, topic: topic, identity: identity).outcome
    }

    /// Sends one push as ``send(pushToken:topic:identity:)`` does, and returns with its outcome the `apns-id` APNs
    /// gave it, if APNs answered.
    public func deliver(pushToken: String, topic: String, identity: SigningIdentity?) async
        -> (outcome: APNsPushOutcome, apnsID: String?)
    {
        guard Self.isValidPushToken(pushToken) else {
            return (.unregistered(reason: "the push token is not hex of a device token's length"), nil)
        }
        let client: HTTPClient
        var bearer: String?
        do {
            if let token {
                bearer = try token.bearer()
                client = try tokenClient()
            } else {
                guard let identity else {
                    return (.rejected(status: 0, reason: "no signing identity for \(topic) to authenticate with"), nil)
                }
                client = try certificateClient(for: topic, identity: identity)
            }
        } catch let error as APNsClientShutDown {
            return (.retry(after: nil, reason: error.description), nil)
        } catch {
            return (.rejected(status: 0, reason: "the credentials for \(topic) cannot be used: \(error)"), nil)
        }
        var request = HTTPClientRequest(url: configuration.gateway.url.absoluteString + "/3/device/" + pushToken)
        request.method = .POST
        request.headers.add(name: "apns-topic", value: topic)
        request.headers.add(name: "apns-push-type", value: "background")
        request.headers.add(name: "apns-priority", value: "5")
        request.headers.add(name: "content-type", value: "application/json")
        if let bearer { request.headers.add(name: "authorization", value: "bearer " + bearer) }
        request.body = .bytes(ByteBuffer(string: "{}"))
        do {
            let deadline = OverallDeadline(seconds: configuration.requestTimeout)
            let (response, body) = try await deadline.run { [request, client] in
                let response = try await client.execute(request, timeout: deadline.duration.timeAmount)
                return (response, try await response.body.collect(upTo: Self.maximumResponseBytes))
            }
            let outcome = Self.outcome(
                status: Int(response.status.code), body: body, retryAfter: response.headers.first(name: "retry-after"))
            if case .retry(_, "ExpiredProviderToken") = outcome, let bearer { token?.renew(after: bearer) }
            return (outcome, response.headers.first(name: "apns-id").map { String($0.prefix(64)) })
        } catch {
            // An error may quote the URL, which holds the push token: keep it out.
            let reason = "\(error)".replacingOccurrences(of: pushToken, with: "<push token>")
            return (.retry(after: nil, reason: "no answer from APNs: \(reason)"), nil)
        }
    }

    /// The outcome of an answer with `status`, `body` (Apple's `{"reason": …}`) and `retryAfter` (seconds, if any).
    static func outcome(status: Int, body: ByteBuffer, retryAfter: String?) -> APNsPushOutcome {
        struct Answer: Decodable { var reason: String? }
        let reason = (try? JSONDecoder().decode(Answer.self, from: Data(body.readableBytesView)))?.reason
        let wait = RetryAfter.seconds(retryAfter)
        switch status {
        case 200:
            return .delivered
        case 410:
            return .unregistered(reason: reason ?? "Unregistered")
        case 400 where reason == "BadDeviceToken" || reason == "DeviceTokenNotForTopic":
            return .unregistered(reason: reason!)
        case 403 where reason == "ExpiredProviderToken":
            return .retry(after: nil, reason: "ExpiredProviderToken")
        case 429, 500...599:
            return .retry(after: wait, reason: reason ?? "status \(status)")
        default:
            return .rejected(status: status, reason: reason ?? "status \(status)")
        }
    }

    /// Closes every connection. Pushes sent afterwards are answered `APNsPushOutcome/retry(after:reason:)`.
    public func shutdown() async throws {
        let all = clients.withLock { clients -> [HTTPClient] in
            clients.isShutDown = true
            let all = [clients.token].compactMap { $0 } + clients.certificates.values.map(\.client) + clients.retired
            clients.token = nil
            clients.certificates = [:]
            clients.retired = []
            return all
        }
        var failure: (any Error)?
        for client in all {
            do { try await client.shutdown() } catch { failure = error }
        }
        if let failure { throw failure }
    }

    // MARK: Connections

    private struct APNsClientShutDown: Error, CustomStringConvertible {
        var description: String { "the APNs client is shut down" }
    }

    private func tokenClient() throws -> HTTPClient {
        try clients.withLock { clients in
            guard !clients.isShutDown else { throw APNsClientShutDown() }
            if let client = clients.token { return client }
            let client = makeHTTPClient(tls: try tlsConfiguration(identity: nil))
            clients.token = client
            return client
        }
    }

    private func certificateClient(for topic: String, identity: SigningIdentity) throws -> HTTPClient {
        let certificate = try identity.certificate.derBytes()
        let fingerprint = Data(SHA256.hash(data: certificate))
        return try clients.withLock { clients in
            guard !clients.isShutDown else { throw APNsClientShutDown() }
            if let known = clients.certificates[topic], known.fingerprint == fingerprint { return known.client }
            let client = makeHTTPClient(tls: try tlsConfiguration(identity: identity, certificate: certificate))
            if let replaced = clients.certificates[topic] { clients.retired.append(replaced.client) }
            clients.certificates[topic] = (fingerprint, client)
            return client
        }
    }

    private func tlsConfiguration(identity: SigningIdentity?, certificate: [UInt8] = []) throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if !configuration.additionalTrustRoots.isEmpty {
            tls.additionalTrustRoots = [.certificates(configuration.additionalTrustRoots)]
        }
        if let identity {
            tls.certificateChain =
                [.certificate(try NIOSSLCertificate(bytes: certificate, format: .der))]
                + (try identity.intermediates.map {
                    .certificate(try NIOSSLCertificate(bytes: $0.derBytes(), format: .der))
                })
            tls.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: [UInt8](identity.privateKeyDER()), format: .der))
        }
        return tls
    }

    private func makeHTTPClient(tls: TLSConfiguration) -> HTTPClient {
        var settings = HTTPClient.Configuration(
            tlsConfiguration: tls,
            timeout: .init(
                connect: .seconds(10), read: .milliseconds(Int64((configuration.requestTimeout * 1000).rounded()))))
        settings.httpVersion = .automatic
        return HTTPClient(
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: settings,
            backgroundActivityLogger: logger)
    }
}
