import CofferSupport
import Crypto
import CryptoExtras
import Foundation
import Hummingbird
import Logging
import NIOCore
import Secrets
import WalletDocuments
import WalletGoogle
import WalletServices

/// A stand-in for Google Wallet, for tests and benchmarks: the OAuth token endpoint (`POST /token`, a JWT-bearer
/// grant whose assertion must be RS256-signed by a registered service account, for the `wallet_object.issuer`
/// scope, addressed to this endpoint and unexpired) and the `walletobjects` API (`/walletobjects/v1/<type>Class`
/// and `…Object`: insert, get, update, patch and `addMessage`), over HTTP/1.1 on 127.0.0.1. It also publishes root
/// keys for callbacks (`GET /keys`) and signs callbacks with them (``callback(classID:objectID:saved:nonce:recipient:expiresAt:)``).
///
/// It answers only as Google documents, each behaviour with its page beside it in the code: errors in Google's shape
/// (`{"error": {"code", "message", "errors": [{"domain", "reason"}]}}`, no `status`); 401 without a token it issued;
/// 403 for a resource of another issuer than the account's; 404 for an unknown resource; 409 for an insert of an
/// identifier that exists; 400 for a class or object that Google's discovery document refuses (when given one:
/// required fields, types, enumerations, list limits) or that holds more than 10 messages; 429 past 20 calls a
/// second per service account, and for a fourth notifying message to one object within 24 hours. A message whose
/// identifier repeats is added again, as Google allows. Answers can be scripted ahead
/// (``script(_:forPathsStartingWith:)``), and every request is recorded.
public final class GoogleWalletStandIn: Sendable {
    /// One request as the stand-in received it.
    public struct Received: Sendable {
        /// `GET`, `POST`, `PUT` or `PATCH`.
        public var method: String
        /// The path, from `/`.
        public var path: String
        /// What the stand-in answered.
        public var status: Int
        /// When it answered.
        public var at: ContinuousClock.Instant
    }

    /// An answer to script.
    public struct Answer: Sendable {
        /// The HTTP status.
        public var status: Int
        /// Google's error reason, sent as `{"error": {"errors": [{"reason": …}]}}`.
        public var errorName: String?
        /// The `Retry-After` header, if any.
        public var retryAfter: String?

        /// An answer of `status`.
        public init(status: Int, errorName: String? = nil, retryAfter: String? = nil) {
            self.status = status
            self.errorName = errorName
            self.retryAfter = retryAfter
        }

        /// 401 `authError`.
        public static let unauthenticated = Answer(status: 401, errorName: "authError")
        /// 500 `backendError`.
        public static let internalError = Answer(status: 500, errorName: "backendError")
        /// 503 `backendError`.
        public static let unavailable = Answer(status: 503, errorName: "backendError")
        /// 429 `rateLimitExceeded`, with `Retry-After` when given.
        public static func tooManyRequests(retryAfter: String? = nil) -> Answer {
            Answer(status: 429, errorName: "rateLimitExceeded", retryAfter: retryAfter)
        }
    }

    /// A service account the token endpoint knows.
    private struct Account {
        var key: _RSA.Signing.PublicKey
        var issuerID: String
    }

    private struct State {
        var accounts: [String: Account] = [:]
        /// Issued access tokens and their account.
        var tokens: [String: String] = [:]
        var resources: [String: [String: JSONValue]] = [:]
        var notifications: [String: [Date]] = [:]
        var scripts: [(prefix: String, answer: Answer)] = []
        var received: [Received] = []
        /// When each account's last calls came, for the rate.
        var calls: [String: [ContinuousClock.Instant]] = [:]
    }

    /// The calls one service account may make a second
    /// ([FAQ](https://developers.google.com/wallet/generic/resources/faq): 20 requests a second, which Google raises
    /// for an issuer on request).
    public var requestsPerSecond: Int {
        get { rate.withLock { $0 } }
        set { rate.withLock { $0 = max(1, newValue) } }
    }
    private let rate: Locked<Int>
    /// The discovery document classes and objects are checked against, if any.
    private let discovery: GoogleDiscoveryDocument?

    /// The root key that signs callbacks' intermediate keys, published at `GET /keys`.
    public let callbackRootKey = P256.Signing.PrivateKey()
    /// The intermediate key that signs callbacks.
    public let callbackIntermediateKey = P256.Signing.PrivateKey()
    /// The port it listens on (on 127.0.0.1).
    public let port: Int
    private let state = Locked(State())
    private let task: Task<Void, any Error>
    private let now: @Sendable () -> Date

    /// The stand-in's base URL.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// A configuration that sends the server's calls here.
    public var configuration: GoogleWalletConfiguration { .standIn(at: url) }

    /// Starts a stand-in dated by `now`, knowing no account yet, that takes `requestsPerSecond` calls a second from
    /// each account and checks classes and objects against the discovery document `COFFER_TEST_GOOGLE_DISCOVERY`
    /// names, if it names one.
    public init(now: @escaping @Sendable () -> Date = { Date() }, requestsPerSecond: Int = 20) async throws {
        self.now = now
        rate = Locked(max(1, requestsPerSecond))
        discovery = GoogleDiscoveryDocument.fromEnvironment
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let box = Locked<GoogleWalletStandIn?>(nil)
        let app = Application(
            responder: CallbackResponder<BasicRequestContext> { request, _ in
                guard let standIn = box.withLock({ $0 }) else { return Response(status: .serviceUnavailable) }
                return try await standIn.respond(to: request)
            },
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "google-wallet-stand-in"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }, logger: Self.quietLogger)
        task = Task { try await app.run() }
        var bound = 0
        for await port in stream { bound = port }
        guard bound > 0 else {
            task.cancel()
            throw CancellationError()
        }
        port = bound
        box.withLock { $0 = self }
    }

    /// A logger that keeps the stand-in's own server quiet.
    private static var quietLogger: Logger {
        var logger = Logger(label: "google-wallet-stand-in")
        logger.logLevel = .critical
        return logger
    }

    /// Stops listening.
    public func shutdown() async {
        task.cancel()
        _ = await task.result
    }

    /// Lets `account`'s key sign in, for the issuer `issuerID`.
    public func register(email: String, key: _RSA.Signing.PublicKey, issuerID: String) {
        state.withLock { $0.accounts[email] = Account(key: key, issuerID: issuerID) }
    }

    /// Makes a service account for the issuer `issuerID` with a new RSA key, lets it sign in, and returns its key
    /// file as Google's console gives it (`client_email`, `private_key`, `private_key_id`).
    public func makeServiceAccount(
        issuerID: String, email: String = "wallet@stand-in.iam.gserviceaccount.com", keyID: String = "stand-in-key"
    ) throws -> Data {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        register(email: email, key: key.publicKey, issuerID: issuerID)
        return JSONValue.object([
            "type": .string("service_account"), "client_email": .string(email), "private_key_id": .string(keyID),
            "private_key": .string(key.pemRepresentation),
        ]).serialized()
    }

    /// Answers the next requests whose path starts with `prefix` (`/token`, `/walletobjects/v1/genericObject`)
    /// with `answers`, in order, instead of handling them.
    public func script(_ answers: [Answer], forPathsStartingWith prefix: String) {
        state.withLock { $0.scripts += answers.map { (prefix, $0) } }
    }

    /// Forgets every access token it issued, as if they had expired: the next call answers 401.
    public func expireTokens() {
        state.withLock { $0.tokens = [:] }
    }

    /// Every request so far, in order.
    public var received: [Received] { state.withLock { $0.received } }

    /// The class or object `id` as stored, or `nil`.
    public func resource(_ id: String) -> [String: JSONValue]? {
        state.withLock { $0.resources[id] }
    }

    // MARK: Answers

    private func respond(to request: Request) async throws -> Response {
        let path = request.uri.path
        let method = request.method.rawValue
        let body = Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)
        let scripted = state.withLock { state -> Answer? in
            guard let index = state.scripts.firstIndex(where: { path.hasPrefix($0.prefix) }) else { return nil }
            return state.scripts.remove(at: index).answer
        }
        let (status, json, retryAfter): (Int, JSONValue, String?)
        if let scripted {
            (status, json, retryAfter) = (
                scripted.status, Self.error(scripted.status, scripted.errorName ?? "UNKNOWN", "scripted"),
                scripted.retryAfter
            )
        } else if path == "/keys", method == "GET" {
            (status, json, retryAfter) = (200, rootKeys(), nil)
        } else if path == "/token", method == "POST" {
            (status, json) = token(body)
            retryAfter = nil
        } else if path.hasPrefix("/walletobjects/v1/") {
            (status, json) = api(
                method, path.dropFirst("/walletobjects/v1/".count).split(separator: "/").map(String.init),
                body: body, bearer: request.headers[.authorization])
            retryAfter = nil
        } else {
            (status, json, retryAfter) = (404, Self.error(404, "notFound", "no such path"), nil)
        }
        state.withLock {
            $0.received.append(Received(method: method, path: path, status: status, at: ContinuousClock.now))
        }
        var headers: HTTPFields = [.contentType: "application/json"]
        if let retryAfter { headers[.retryAfter] = retryAfter }
        return Response(
            status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: json.serialized()))
        )
    }

    /// The root keys document, the root key valid for a day.
    /// https://developers.google.com/wallet/generic/use-cases/use-callbacks-for-saves-and-deletions: the keys at
    /// `pay.google.com/gp/m/issuer/keys`, `{"keys": [{"keyValue", "protocolVersion", "keyExpiration"}]}`.
    private func rootKeys() -> JSONValue {
        .object([
            "keys": .array([
                .object([
                    "keyValue": .string(callbackRootKey.publicKey.derRepresentation.base64EncodedString()),
                    "protocolVersion": .string(GoogleWalletCallback.protocolVersion),
                    "keyExpiration": .string(String(Int64((now().timeIntervalSince1970 + 86_400) * 1000))),
                ])
            ])
        ])
    }

    /// A callback as Google posts it: `eventType` `save` (or `del` when not `saved`) of the object `objectID` of
    /// the class `classID`, for the issuer `recipient`, signed through the stand-in's keys and expiring at
    /// `expiresAt`.
    public func callback(
        classID: String, objectID: String, saved: Bool = true, nonce: String = UUID().uuidString,
        recipient: String, expiresAt: Date? = nil
    ) throws -> Data {
        let protocolVersion = GoogleWalletCallback.protocolVersion
        let signedKey = String(
            decoding: JSONValue.object([
                "keyValue": .string(callbackIntermediateKey.publicKey.derRepresentation.base64EncodedString()),
                "keyExpiration": .string(String(Int64((now().timeIntervalSince1970 + 3600) * 1000))),
            ]).serialized(), as: UTF8.self)
        let expiry = expiresAt ?? now().addingTimeInterval(60)
        let message = String(
            decoding: JSONValue.object([
                "classId": .string(classID), "objectId": .string(objectID),
                "eventType": .string(saved ? "save" : "del"),
                "nonce": .string(nonce), "expTimeMillis": .number(Double(Int64(expiry.timeIntervalSince1970 * 1000))),
            ]).serialized(), as: UTF8.self)
        let sender = GoogleWalletCallback.senderID
        let keySignature = try callbackRootKey.signature(
            for: GoogleWalletCallback.lengthPrefixed([sender, protocolVersion, signedKey]))
        let messageSignature = try callbackIntermediateKey.signature(
            for: GoogleWalletCallback.lengthPrefixed([sender, recipient, protocolVersion, message]))
        return JSONValue.object([
            "protocolVersion": .string(protocolVersion), "signedMessage": .string(message),
            "signature": .string(messageSignature.derRepresentation.base64EncodedString()),
            "intermediateSigningKey": .object([
                "signedKey": .string(signedKey),
                "signatures": .array([.string(keySignature.derRepresentation.base64EncodedString())]),
            ]),
        ]).serialized()
    }

    /// The token endpoint: checks the grant and its assertion, and issues a token for an hour.
    /// https://developers.google.com/identity/protocols/oauth2/service-account#httprest: a JWT-bearer grant whose
    /// RS256 assertion names the account (`iss`), the scope, this endpoint (`aud`) and at most an hour; `invalid_grant`
    /// otherwise.
    private func token(_ body: Data) -> (Int, JSONValue) {
        let refused: (Int, JSONValue) = (
            400, .object(["error": .string("invalid_grant"), "error_description": .string("Invalid JWT.")])
        )
        var form: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { form[parts[0].removingPercentEncoding ?? ""] = parts[1].removingPercentEncoding }
        }
        guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = form["assertion"]
        else { return (400, .object(["error": .string("unsupported_grant_type")])) }
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = Data(base64URLEncoded: parts[0]),
            case .object(let header)? = try? JSONValue(parsing: headerData), header["alg"] == .string("RS256"),
            let claimsData = Data(base64URLEncoded: parts[1]),
            case .object(let claims)? = try? JSONValue(parsing: claimsData),
            case .string(let email)? = claims["iss"], let signature = Data(base64URLEncoded: parts[2]),
            let account = state.withLock({ $0.accounts[email] }),
            account.key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: Data((parts[0] + "." + parts[1]).utf8),
                padding: .insecurePKCS1v1_5),
            claims["aud"] == .string(configuration.tokenURL.absoluteString),
            case .string(let scope)? = claims["scope"],
            scope.split(separator: " ").contains("https://www.googleapis.com/auth/wallet_object.issuer"),
            case .number(let issued)? = claims["iat"], case .number(let expires)? = claims["exp"],
            expires > now().timeIntervalSince1970, expires - issued <= 3600, issued <= now().timeIntervalSince1970 + 60
        else { return refused }
        let token = "ya29.stand-in-" + UUID().uuidString.lowercased()
        state.withLock { $0.tokens[token] = email }
        return (
            200,
            .object([
                "access_token": .string(token), "expires_in": .number(3599), "token_type": .string("Bearer"),
            ])
        )
    }

    /// The API: `[resource]` (insert), `[resource, id]` (get, update, patch), `[resource, id, "addMessage"]`.
    private func api(_ method: String, _ segments: [String], body: Data, bearer: String?) -> (Int, JSONValue) {
        guard let bearer, bearer.hasPrefix("Bearer "),
            let email = state.withLock({ $0.tokens[String(bearer.dropFirst(7))] }),
            let issuerID = state.withLock({ $0.accounts[email]?.issuerID })
        else {
            // https://developers.google.com/identity/protocols/oauth2/service-account#callinganapi: an expired or
            // unknown access token is answered 401.
            return (401, Self.error(401, "authError", "Request had invalid authentication credentials."))
        }
        // https://developers.google.com/wallet/generic/resources/faq: "20 requests per second".
        guard takeTurn(of: email) else {
            return (429, Self.error(429, "rateLimitExceeded", "Quota exceeded for requests per second."))
        }
        guard let resource = segments.first,
            let type = GoogleWalletType.allCases.first(where: {
                $0.classResource == resource || $0.objectResource == resource
            })
        else { return (404, Self.error(404, "notFound", "no such resource")) }
        var content: [String: JSONValue] = [:]
        if method == "POST" || method == "PUT" || method == "PATCH" {
            guard case .object(let object)? = try? JSONValue(parsing: body) else {
                return (400, Self.error(400, "invalid", "Invalid JSON payload received."))
            }
            content = object
        }
        let schema = resource.hasSuffix("Object") ? type.schemaNames.walletObject : type.schemaNames.walletClass
        let id: String
        if segments.count == 1, case .string(let given)? = content["id"] {
            id = given
        } else if segments.count > 1 {
            id = segments[1]
        } else {
            return (400, Self.error(400, "required", "id is required"))
        }
        guard id.hasPrefix(issuerID + ".") else {
            // https://developers.google.com/wallet/generic/resources/error-codes: 403 for another issuer's resource.
            return (403, Self.error(403, "permissionDenied", "The caller does not have permission"))
        }
        let isObject = resource.hasSuffix("Object")
        return state.withLock { state -> (Int, JSONValue) in
            let stored = state.resources[id]
            switch (method, segments.count) {
            case ("POST", 1):
                // https://developers.google.com/wallet/reference/rest/v1/genericobject/insert
                if stored != nil { return (409, Self.error(409, "duplicate", "Resource already exists")) }
                if isObject {
                    guard case .string(let classID)? = content["classId"], state.resources[classID] != nil else {
                        return (404, Self.error(404, "notFound", "The class of the object does not exist"))
                    }
                }
                if let refused = refusal(of: content, as: schema) { return refused }
                state.resources[id] = content
                return (200, .object(content))
            case ("GET", 2):
                // https://developers.google.com/wallet/reference/rest/v1/genericobject/get
                guard let stored else { return (404, Self.error(404, "notFound", "Resource not found")) }
                return (200, .object(stored))
            case ("PUT", 2), ("PATCH", 2):
                // https://developers.google.com/wallet/reference/rest/v1/genericobject/update and …/patch
                guard let stored else { return (404, Self.error(404, "notFound", "Resource not found")) }
                let replaced = method == "PUT" ? content : stored.merging(content) { $1 }
                if let refused = refusal(of: replaced, as: schema) { return refused }
                state.resources[id] = replaced
                return (200, .object(replaced))
            case ("POST", 3) where segments[2] == "addMessage":
                // https://developers.google.com/wallet/reference/rest/v1/genericobject/addmessage; message ids may
                // repeat (the Message schema's description), so a repeated one is added again.
                guard var stored else { return (404, Self.error(404, "notFound", "Resource not found")) }
                guard case .object(let message)? = content["message"] else {
                    return (400, Self.error(400, "required", "message is required"))
                }
                if message["messageType"] == .string("TEXT_AND_NOTIFY") {
                    // https://developers.google.com/wallet/generic/resources/faq: 3 notifications a day per pass.
                    let recent = (state.notifications[id] ?? []).filter { now().timeIntervalSince($0) < 86_400 }
                    guard recent.count < 3 else {
                        return (
                            429, Self.error(429, "rateLimitExceeded", "Notification limit reached for this object")
                        )
                    }
                    state.notifications[id] = recent + [now()]
                }
                if case .array(let messages)? = stored["messages"] {
                    stored["messages"] = .array(messages + [.object(message)])
                } else {
                    stored["messages"] = .array([.object(message)])
                }
                if let refused = refusal(of: stored, as: schema) { return refused }
                state.resources[id] = stored
                return (200, .object(["resource": .object(stored)]))
            default:
                return (404, Self.error(404, "notFound", "no such method"))
            }
        }
    }

    /// Counts a call of `account` if it made fewer than ``requestsPerSecond`` in the second before.
    private func takeTurn(of account: String) -> Bool {
        let instant = ContinuousClock.now
        return state.withLock { state in
            var recent = (state.calls[account] ?? []).filter { instant - $0 < .seconds(1) }
            guard recent.count < rate.withLock({ $0 }) else { return false }
            recent.append(instant)
            state.calls[account] = recent
            return true
        }
    }

    /// Google's 400 for `content` as an instance of `schema`, if it refuses it: more than 10 messages (every
    /// class's and object's `messages`: "The maximum number of these fields is 10"), or whatever the discovery
    /// document refuses, when the stand-in has one.
    private func refusal(of content: [String: JSONValue], as schema: String) -> (Int, JSONValue)? {
        if case .array(let messages)? = content["messages"], messages.count > 10 {
            return (400, Self.error(400, "invalid", "\(schema).messages: at most 10 messages"))
        }
        guard let problems = discovery?.problems(.object(content), as: schema), let first = problems.first else {
            return nil
        }
        return (400, Self.error(400, "invalid", first))
    }

    /// Google's error body, as its API answers in production: `code`, `message` and `errors` with a `domain` and a
    /// `reason`, without gRPC's `status`; the statuses are those of
    /// [Google's error codes](https://developers.google.com/wallet/generic/resources/error-codes).
    private static func error(_ status: Int, _ reason: String, _ message: String) -> JSONValue {
        .object([
            "error": .object([
                "code": .number(Double(status)), "message": .string(message),
                "errors": .array([
                    .object(["domain": .string("global"), "reason": .string(reason), "message": .string(message)])
                ]),
            ])
        ])
    }
}
