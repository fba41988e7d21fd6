import CofferSupport
import Crypto
import Foundation
import Secrets
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import SwiftASN1
import WalletDocuments
import X509

/// A stand-in for Apple's APNs gateway, for tests and benchmarks: HTTP/2 over TLS (ALPN `h2`) on 127.0.0.1 with a
/// certificate for `localhost` made at run time by its own CA (``trustRoot``, which the client is given to trust).
///
/// It authenticates requests as APNs does: a provider token (`authorization: bearer <JWT>`) must be ES256-signed by
/// the key it was given (`kid`, `iss`, `iat` no older than an hour); otherwise a client certificate presented at the
/// TLS handshake (verified against `clientCertificateAuthority`) authenticates the connection; with neither it
/// answers 403 `MissingProviderToken`. It checks the request (`POST /3/device/<hex>`, `apns-topic`, a JSON payload),
/// records it, and answers what was scripted for its push token (200 when nothing was), with Apple's
/// `{"reason": …}` bodies.
public final class APNsStandIn: Sendable {
    /// One request as the stand-in received it.
    public struct Received: Sendable {
        /// The request's path (`/3/device/<push token>`).
        public var path: String
        /// The headers, by lowercased name.
        public var headers: [String: String]
        /// The payload.
        public var body: String
        /// The subject of the client certificate presented at the handshake, if any.
        public var clientCertificateSubject: String?
        /// The provider token, if the request carried one.
        public var bearer: String?
        /// What the stand-in answered.
        public var status: Int
    }

    /// An answer to script for a push token.
    public struct Answer: Sendable {
        /// The HTTP status.
        public var status: Int
        /// Apple's `reason`, sent as `{"reason": …}`.
        public var reason: String?
        /// The `Retry-After` header, if any.
        public var retryAfter: String?

        /// An answer of `status` with `reason` and `retryAfter`.
        public init(status: Int, reason: String? = nil, retryAfter: String? = nil) {
            self.status = status
            self.reason = reason
            self.retryAfter = retryAfter
        }

        /// 200: delivered.
        public static let ok = Answer(status: 200)
        /// 410 `Unregistered`.
        public static let unregistered = Answer(status: 410, reason: "Unregistered")
        /// 400 `BadDeviceToken`.
        public static let badDeviceToken = Answer(status: 400, reason: "BadDeviceToken")
        /// 400 `DeviceTokenNotForTopic`.
        public static let deviceTokenNotForTopic = Answer(status: 400, reason: "DeviceTokenNotForTopic")
        /// 400 `TopicDisallowed`.
        public static let topicDisallowed = Answer(status: 400, reason: "TopicDisallowed")
        /// 413 `PayloadTooLarge`.
        public static let payloadTooLarge = Answer(status: 413, reason: "PayloadTooLarge")
        /// 500 `InternalServerError`.
        public static let internalServerError = Answer(status: 500, reason: "InternalServerError")
        /// 503 `ServiceUnavailable`.
        public static let serviceUnavailable = Answer(status: 503, reason: "ServiceUnavailable")
        /// 429 `TooManyRequests`, with `Retry-After` when given.
        public static func tooManyRequests(retryAfter: String? = nil) -> Answer {
            Answer(status: 429, reason: "TooManyRequests", retryAfter: retryAfter)
        }
    }

    private struct State {
        var received: [Received] = []
        var scripts: [String: [Answer]] = [:]
    }

    /// The CA certificate that issued the stand-in's TLS certificate.
    public let trustRoot: NIOSSLCertificate
    /// The port it listens on (on 127.0.0.1).
    public let port: Int
    private let channel: any Channel
    private let state = Locked(State())
    private let tokenKey: P256.Signing.PublicKey?
    private let keyID: String?
    private let teamID: String?
    private let now: @Sendable () -> Date
    /// Told of each push it accepted, as a device would be: after its answer is decided.
    private let delivered: (@Sendable (Received) -> Void)?

    /// The gateway URL to give the client.
    public var url: URL { URL(string: "https://localhost:\(port)")! }

    /// Starts a stand-in that accepts provider tokens signed by `tokenKey` for `keyID` and `teamID` (none when nil),
    /// and client certificates issued by `clientCertificateAuthority` (none asked for when nil); `delivered` hears of
    /// each push it answers 200, as the device it is for would.
    public init(
        tokenKey: P256.Signing.PublicKey? = nil, keyID: String? = nil, teamID: String? = nil,
        clientCertificateAuthority: Certificate? = nil, now: @escaping @Sendable () -> Date = { Date() },
        delivered: (@Sendable (Received) -> Void)? = nil
    ) async throws {
        self.delivered = delivered
        self.tokenKey = tokenKey
        self.keyID = keyID
        self.teamID = teamID
        self.now = now
        let (root, leaf, leafKey) = try Self.makeServerCertificates()
        trustRoot = try NIOSSLCertificate(bytes: root.derBytes(), format: .der)
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: leaf.derBytes(), format: .der))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(leafKey.derRepresentation), format: .der)))
        tls.applicationProtocols = ["h2"]
        if let clientCertificateAuthority {
            tls.certificateVerification = .optionalVerification
            tls.trustRoots = .certificates([
                try NIOSSLCertificate(bytes: clientCertificateAuthority.derBytes(), format: .der)
            ])
        }
        let context = try NIOSSLContext(configuration: tls)
        let box = Locked<APNsStandIn?>(nil)
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { connection in
                connection.eventLoop.makeCompletedFuture {
                    try connection.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }.flatMap {
                    connection.configureHTTP2Pipeline(mode: .server) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            let peer = try? stream.parent?.pipeline.syncOperations.handler(
                                type: NIOSSLServerHandler.self
                            ).peerCertificate
                            let subject = peer.flatMap { try? Certificate(derEncoded: $0.toDERBytes()).subject }
                            guard let standIn = box.withLock({ $0 }) else {
                                throw ChannelError.ioOnClosedChannel
                            }
                            try stream.pipeline.syncOperations.addHandlers([
                                HTTP2FramePayloadToHTTP1ServerCodec(),
                                StreamHandler(standIn: standIn, clientCertificateSubject: subject.map { "\($0)" }),
                            ])
                        }
                    }.map { _ in }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress!.port!
        box.withLock { $0 = self }
    }

    /// Answers the next requests for `pushToken` with `answers`, in order (then 200).
    public func script(_ pushToken: String, _ answers: Answer...) {
        state.withLock { $0.scripts[pushToken, default: []].append(contentsOf: answers) }
    }

    /// Every request received so far, in order.
    public var received: [Received] { state.withLock { $0.received } }

    /// Stops listening.
    public func shutdown() async throws {
        try await channel.close()
    }

    /// Runs `body` with a stand-in, shutting it down afterwards.
    public static func with<Result>(
        tokenKey: P256.Signing.PublicKey? = nil, keyID: String? = nil, teamID: String? = nil,
        clientCertificateAuthority: Certificate? = nil, now: @escaping @Sendable () -> Date = { Date() },
        _ body: (APNsStandIn) async throws -> Result
    ) async throws -> Result {
        let standIn = try await APNsStandIn(
            tokenKey: tokenKey, keyID: keyID, teamID: teamID, clientCertificateAuthority: clientCertificateAuthority,
            now: now)
        do {
            let result = try await body(standIn)
            try await standIn.shutdown()
            return result
        } catch {
            try? await standIn.shutdown()
            throw error
        }
    }

    // MARK: Answering

    /// What APNs would answer `head` with `body`, from a connection that presented `clientCertificateSubject`.
    fileprivate func answer(head: HTTPRequestHead, body: String, clientCertificateSubject: String?) -> Answer {
        var headers: [String: String] = [:]
        for (name, value) in head.headers { headers[name.lowercased()] = value }
        let bearer = headers["authorization"].flatMap { $0.hasPrefix("bearer ") ? String($0.dropFirst(7)) : nil }
        let pushToken = head.uri.hasPrefix("/3/device/") ? String(head.uri.dropFirst("/3/device/".count)) : ""
        let (answer, received): (Answer, Received) = state.withLock { state in
            let answer =
                check(
                    head: head, pushToken: pushToken, headers: headers, body: body, bearer: bearer,
                    clientCertificateSubject: clientCertificateSubject)
                ?? (state.scripts[pushToken]?.isEmpty == false ? state.scripts[pushToken]!.removeFirst() : .ok)
            let received = Received(
                path: head.uri, headers: headers, body: body, clientCertificateSubject: clientCertificateSubject,
                bearer: bearer, status: answer.status)
            state.received.append(received)
            return (answer, received)
        }
        if answer.status == 200 { delivered?(received) }
        return answer
    }

    /// The error APNs would answer, or nil when the request is acceptable.
    private func check(
        head: HTTPRequestHead, pushToken: String, headers: [String: String], body: String, bearer: String?,
        clientCertificateSubject: String?
    ) -> Answer? {
        guard head.method == .POST else { return Answer(status: 405, reason: "MethodNotAllowed") }
        guard head.uri.hasPrefix("/3/device/") else { return Answer(status: 404, reason: "BadPath") }
        guard !pushToken.isEmpty, pushToken.allSatisfy(\.isHexDigit) else {
            return Answer(status: 400, reason: "BadDeviceToken")
        }
        if let bearer {
            if let refusal = verify(bearer) { return refusal }
        } else if clientCertificateSubject == nil {
            return Answer(status: 403, reason: "MissingProviderToken")
        }
        guard let topic = headers["apns-topic"], !topic.isEmpty else {
            return Answer(status: 400, reason: "MissingTopic")
        }
        guard let pushType = headers["apns-push-type"], ["alert", "background"].contains(pushType) else {
            return Answer(status: 400, reason: "InvalidPushType")
        }
        guard !body.isEmpty else { return Answer(status: 400, reason: "PayloadEmpty") }
        guard body.utf8.count <= 4096 else { return .payloadTooLarge }
        guard (try? JSONSerialization.jsonObject(with: Data(body.utf8))) is [String: Any] else {
            return Answer(status: 400, reason: "BadPayload")
        }
        return nil
    }

    /// Checks a provider token as APNs does: ES256 by the known key, its `kid`, `iss` the team, `iat` within the hour.
    private func verify(_ token: String) -> Answer? {
        let invalid = Answer(status: 403, reason: "InvalidProviderToken")
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let tokenKey,
            let headerData = Data(base64URLEncoded: parts[0]), let claimsData = Data(base64URLEncoded: parts[1]),
            let signatureData = Data(base64URLEncoded: parts[2]),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any],
            header["alg"] as? String == "ES256", header["kid"] as? String == keyID, claims["iss"] as? String == teamID,
            let issuedAt = (claims["iat"] as? NSNumber)?.doubleValue,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
            tokenKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return invalid }
        let age = now().timeIntervalSince1970 - issuedAt
        guard age < 3600 else { return Answer(status: 403, reason: "ExpiredProviderToken") }
        guard age > -60 else { return invalid }
        return nil
    }

    // MARK: Certificates

    /// A CA and a `localhost` server certificate it issued (P-256), valid from an hour ago for a day.
    static func makeServerCertificates() throws -> (root: Certificate, leaf: Certificate, key: P256.Signing.PrivateKey)
    {
        let now = Date()
        let rootKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("Coffer APNs stand-in test CA") }
        let leafName = try DistinguishedName { CommonName("localhost") }
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(86_400),
            issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(rootKey))
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(86_400),
            issuer: rootName, subject: leafName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.dnsName("localhost")])
            },
            issuerPrivateKey: .init(rootKey))
        return (root, leaf, leafKey)
    }
}

/// One HTTP/2 stream of the stand-in: collects the request, then writes the stand-in's answer.
private final class StreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let standIn: APNsStandIn
    private let clientCertificateSubject: String?
    private var head: HTTPRequestHead?
    private var body = ""

    init(standIn: APNsStandIn, clientCertificateSubject: String?) {
        self.standIn = standIn
        self.clientCertificateSubject = clientCertificateSubject
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(let buffer):
            body += String(buffer: buffer)
        case .end:
            guard let head else { return }
            let answer = standIn.answer(head: head, body: body, clientCertificateSubject: clientCertificateSubject)
            var headers = HTTPHeaders([("apns-id", UUID().uuidString)])
            var payload = ByteBuffer()
            if let reason = answer.reason {
                headers.add(name: "content-type", value: "application/json")
                payload = ByteBuffer(string: #"{"reason":"\#(reason)"}"#)
            }
            if let retryAfter = answer.retryAfter { headers.add(name: "retry-after", value: retryAfter) }
            headers.add(name: "content-length", value: "\(payload.readableBytes)")
            context.write(
                wrapOutboundOut(
                    .head(HTTPResponseHead(version: .http2, status: .init(statusCode: answer.status), headers: headers))
                ),
                promise: nil)
            if payload.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(payload))), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
