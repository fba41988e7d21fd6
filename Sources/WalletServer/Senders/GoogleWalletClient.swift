import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Secrets
import WalletDocuments
import WalletGoogle
import WalletServices

/// Writes passes to Google Wallet's `walletobjects` API as the pass type's service account: an OAuth access token
/// from the token endpoint (a JWT-bearer grant for the `wallet_object.issuer` scope, kept in ``GoogleAccessTokens``
/// and asked for again after a 401), then each call with one overall deadline, its answer read to 1 MiB at most,
/// paced per service account (``GoogleWalletConfiguration/requestsPerSecond``, counted across replicas when given a
/// shared ``RateLimiter``), and held back for that account alone after a 429 or a quota refusal.
///
/// ``saveClass(_:exists:as:)`` replaces a class known to exist and inserts a new one; a class that exists already
/// (409) is read and replaced unless it holds what Coffer sends. ``saveObject(_:as:)`` replaces the object, inserting
/// it when Google does not know it: writing the same pass twice leaves Google as writing it once.
package final class GoogleWalletClient: GoogleWalletAPI {
    /// The endpoints and limits.
    package let configuration: GoogleWalletConfiguration
    /// The connections, made at the first call.
    private let http = Locked<HTTPClient?>(nil)
    private let tokens: GoogleAccessTokens
    private let clock: any CofferClock
    /// The time the pace and hold-backs are measured in: the real one, since Google's limits are.
    private let realTime = SystemClock()
    /// Counts each service account's calls, at ``GoogleWalletConfiguration/requestsPerSecond``.
    private let pace: RateLimiter<String>
    /// Until when each service account's calls wait, after Google said it had too many.
    private let heldBack = Locked<[String: Date]>([:])

    /// The OAuth scope of the API.
    static let scope = "https://www.googleapis.com/auth/wallet_object.issuer"
    /// The largest answer body read.
    static let maximumResponseBytes = 1 << 20
    /// The keys of a class Google sets itself, left out when a class read back is compared with one sent.
    static let keysGoogleSets: Set<String> = ["kind", "reviewStatus", "version"]

    /// How long an account waits after a 429 or a quota refusal without `Retry-After`.
    static let defaultHoldBack: TimeInterval = 1

    /// A client for `configuration`'s endpoints; tokens are dated by `clock`; with `rateBuckets`, every replica's
    /// calls count together against each account's pace.
    package init(
        configuration: GoogleWalletConfiguration = GoogleWalletConfiguration(), clock: any CofferClock = SystemClock(),
        rateBuckets: (any RateBucketStore)? = nil
    ) {
        self.configuration = configuration
        self.clock = clock
        tokens = GoogleAccessTokens(clock: clock)
        pace = RateLimiter(
            limit: RateLimit(perMinute: configuration.requestsPerSecond * 60_000 / 1_050, burst: 1), clock: realTime,
            shared: rateBuckets.map { (name: "google-pace", store: $0) })
    }

    package func saveClass(_ walletClass: GoogleWalletClass, exists: Bool, as account: GoogleServiceAccount) async
        -> GoogleWalletOutcome
    {
        await attempt {
            guard Self.isResourceID(walletClass.id) else {
                return .refused(
                    status: 400, reason: "invalid", detail: "the class's identifier holds characters Google refuses")
            }
            let body = try Self.encoded(walletClass)
            let resource = walletClass.type.classResource
            let path = resource + "/" + walletClass.id
            if exists {
                let replaced = try await call(.PUT, path, body: body, as: account)
                guard replaced.status == 404 else { return replaced.outcome }
            }
            let inserted = try await call(.POST, resource, body: body, as: account)
            guard inserted.status == 409 else { return inserted.outcome }
            // Another writer's class may sit under this identifier: read it, and replace it unless it is this one.
            let existing = try await call(.GET, path, body: Data(), as: account)
            guard (200..<300).contains(existing.status) else { return existing.outcome }
            guard !Self.holds(existing.body, body) else { return .done }
            return try await call(.PUT, path, body: body, as: account).outcome
        }
    }

    package func saveObject(_ object: GoogleWalletObject, as account: GoogleServiceAccount) async
        -> GoogleWalletOutcome
    {
        await attempt {
            guard Self.isResourceID(object.id) else {
                return .refused(
                    status: 400, reason: "invalid", detail: "the object's identifier holds characters Google refuses")
            }
            let body = try Self.encoded(object)
            let path = object.type.objectResource + "/" + object.id
            var answer = try await call(.PUT, path, body: body, as: account)
            if answer.status == 404 {
                answer = try await call(.POST, object.type.objectResource, body: body, as: account)
                // Inserted meanwhile (by a save link): replace it.
                if answer.status == 409 { answer = try await call(.PUT, path, body: body, as: account) }
                // Its class is not there yet: another writer is inserting it.
                if answer.status == 404 { return .retry(after: 1, reason: "the object's class is not written yet") }
            }
            return answer.outcome
        }
    }

    package func retire(
        _ objectID: String, of type: GoogleWalletType, messages: [GoogleWallet.Message],
        as account: GoogleServiceAccount
    ) async -> GoogleWalletOutcome {
        await attempt {
            guard Self.isResourceID(objectID) else {
                return .refused(status: 400, reason: "invalid", detail: "the object's identifier is invalid")
            }
            struct Retired: Encodable {
                var state = "INACTIVE"
                var messages: [GoogleWallet.Message]
            }
            let answer = try await call(
                .PATCH, type.objectResource + "/" + objectID, body: try Self.encoded(Retired(messages: messages)),
                as: account)
            // Never saved by anyone, so never inserted: nothing to retire.
            return answer.status == 404 ? .done : answer.outcome
        }
    }

    /// Whether the class Google holds (`existing`) is the class `sent`: the same keys with the same values, but
    /// those Google sets itself (``keysGoogleSets``).
    static func holds(_ existing: Data, _ sent: Data) -> Bool {
        guard case .object(let held)? = try? JSONValue(parsing: existing),
            case .object(let wanted)? = try? JSONValue(parsing: sent)
        else { return false }
        return Set(held.keys).union(wanted.keys).subtracting(keysGoogleSets).allSatisfy { held[$0] == wanted[$0] }
    }

    package func shutdown() async throws {
        try await http.withLock { client in
            defer { client = nil }
            return client
        }?.shutdown()
    }

    /// The client the calls share, made at the first.
    private var client: HTTPClient {
        http.withLock { client in
            if let client { return client }
            var settings = HTTPClient.Configuration(
                redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5)))
            settings.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(8, configuration.maximumInFlight)
            let made = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: settings)
            client = made
            return made
        }
    }

    /// The body of Google's root keys document for callbacks, read to 256 KiB within the configured deadline.
    ///
    /// - Throws: when there is no answer in time or it is not a 200.
    package static func rootKeys(_ configuration: GoogleWalletConfiguration) async throws -> Data {
        var request = HTTPClientRequest(url: configuration.callbackKeysURL.absoluteString)
        request.headers.add(name: "user-agent", value: "Coffer-GoogleWallet/1")
        let deadline = OverallDeadline(seconds: configuration.requestTimeout)
        return try await deadline.run { [request] in
            let response = try await HTTPClient.shared.execute(request, timeout: deadline.duration.timeAmount)
            let body = try await response.body.collect(upTo: 256 * 1024)
            guard response.status == .ok else { throw RootKeysUnavailable(status: Int(response.status.code)) }
            return Data(body.readableBytesView)
        }
    }

    /// Google's root keys document answered another status than 200.
    struct RootKeysUnavailable: Error {
        var status: Int
    }

    /// Whether `id` may go in a path: `<issuer id>.<suffix>` of letters, digits, `.`, `_` and `-`.
    static func isResourceID(_ id: String) -> Bool {
        (3...256).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }

    // MARK: Calls

    /// One answer of the API or the token endpoint.
    struct Answer {
        var status: Int
        var body: Data
        var retryAfter: Double?

        /// What the answer means for the write.
        var outcome: GoogleWalletOutcome {
            switch status {
            case 200..<300: return .done
            case 429, 500...599: return .retry(after: retryAfter, reason: "Google answered \(status) \(errorName)")
            case 403 where isQuota: return .retry(after: retryAfter, reason: "Google answered 403 \(errorName)")
            default: return .refused(status: status, reason: errorName, detail: errorMessage)
            }
        }

        /// Whether Google says a quota or rate ran out: a 429, or a 403 whose reason names one (Google documents the
        /// notification quota's exception but not its status,
        /// [FAQ](https://developers.google.com/wallet/generic/resources/faq)).
        var isQuota: Bool {
            status == 429
                || (status == 403
                    && ["quota", "ratelimit", "rate_limit", "resource_exhausted"].contains {
                        errorName.lowercased().contains($0)
                    })
        }

        /// Google's reason: the first of `error.errors[].reason` (`invalid`, `quotaExceeded`; what Google's
        /// `walletobjects` errors carry), else `error.status` (`INVALID_ARGUMENT`), else OAuth's `error`
        /// (`invalid_grant`).
        var errorName: String {
            guard case .object(let object)? = try? JSONValue(parsing: body) else { return "status \(status)" }
            if case .object(let error)? = object["error"] {
                if case .array(let errors)? = error["errors"], case .object(let first)? = errors.first,
                    case .string(let reason)? = first["reason"]
                {
                    return String(reason.prefix(64))
                }
                if case .string(let name)? = error["status"] { return String(name.prefix(64)) }
            }
            if case .string(let name)? = object["error"] { return String(name.prefix(64)) }
            return "status \(status)"
        }

        /// Google's `error.message`, or OAuth's `error_description`, cut to 300 characters.
        var errorMessage: String? {
            guard case .object(let object)? = try? JSONValue(parsing: body) else { return nil }
            if case .object(let error)? = object["error"], case .string(let message)? = error["message"] {
                return String(message.prefix(300))
            }
            if case .string(let message)? = object["error_description"] { return String(message.prefix(300)) }
            return nil
        }
    }

    /// A call that cannot be made, and what that means for the write.
    private struct Stopped: Error {
        var outcome: GoogleWalletOutcome
    }

    /// Runs `body`, turning a failure to sign in or to get an answer into its outcome.
    private func attempt(_ body: () async throws -> GoogleWalletOutcome) async -> GoogleWalletOutcome {
        do {
            return try await body()
        } catch let stopped as Stopped {
            return stopped.outcome
        } catch is OverallDeadline.Passed {
            return .retry(
                after: nil, reason: "Google did not answer in full within \(Int(configuration.requestTimeout)) s")
        } catch {
            return .retry(after: nil, reason: "no answer from Google: \(type(of: error))")
        }
    }

    /// Calls `method path` of the API as `account`: with its kept token, and once more with a new one if Google
    /// answers 401.
    private func call(_ method: HTTPMethod, _ path: String, body: Data, as account: GoogleServiceAccount)
        async throws -> Answer
    {
        let url = configuration.apiURL.absoluteString + "/" + path
        var token = try await accessToken(of: account)
        try await waitForTurn(of: account)
        var answer = try await exchange(method, url, body: body, contentType: "application/json", bearer: token)
        if answer.status == 401 {
            await tokens.discard(token, of: account)
            token = try await accessToken(of: account)
            try await waitForTurn(of: account)
            answer = try await exchange(method, url, body: body, contentType: "application/json", bearer: token)
        }
        if answer.isQuota {
            let until = realTime.now.addingTimeInterval(min(60, answer.retryAfter ?? Self.defaultHoldBack))
            heldBack.withLock { $0[account.clientEmail] = max($0[account.clientEmail] ?? until, until) }
        }
        return answer
    }

    /// Waits until `account` may make a call: past any hold-back Google asked for, then its turn in the pace.
    private func waitForTurn(of account: GoogleServiceAccount) async throws {
        let key = account.clientEmail
        if let until = heldBack.withLock({ $0[key] }) {
            let wait = until.timeIntervalSince(realTime.now)
            if wait > 0 { try await Task.sleep(for: .seconds(wait)) } else { heldBack.withLock { $0[key] = nil } }
        }
        while case .limited(let wait) = await pace.acquireAcrossReplicas(for: key) {
            try await Task.sleep(for: wait)
        }
    }

    /// A token of `account`, from the cache or the token endpoint.
    ///
    /// - Throws: ``Stopped`` when the endpoint refuses the account or answers no token.
    private func accessToken(of account: GoogleServiceAccount) async throws -> String {
        try await tokens.token(for: account) { [self] in
            let now = clock.now
            let issued = Int64(now.timeIntervalSince1970)
            let assertion: String
            do {
                assertion = try account.jwt(claims: [
                    "iss": .string(account.clientEmail), "scope": .string(Self.scope),
                    "aud": .string(configuration.tokenURL.absoluteString), "iat": .number(Double(issued)),
                    "exp": .number(Double(issued + 3600)),
                ])
            } catch {
                throw Stopped(outcome: .refused(status: 401, reason: "unusable_key", detail: "\(error)"))
            }
            let answer = try await exchange(
                .POST, configuration.tokenURL.absoluteString,
                body: Data(
                    ("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion).utf8),
                contentType: "application/x-www-form-urlencoded", bearer: nil)
            guard (200..<300).contains(answer.status) else {
                switch answer.outcome {
                case .refused(let status, let reason, let detail):
                    // The token endpoint refuses a key Google does not know with 400 `invalid_grant`.
                    throw Stopped(
                        outcome: .refused(status: status == 400 ? 401 : status, reason: reason, detail: detail))
                case let other: throw Stopped(outcome: other)
                }
            }
            guard case .object(let object)? = try? JSONValue(parsing: answer.body),
                case .string(let token)? = object["access_token"], !token.isEmpty
            else {
                throw Stopped(outcome: .retry(after: nil, reason: "the token endpoint answered no access_token"))
            }
            var lifetime: TimeInterval = 3600
            if case .number(let seconds)? = object["expires_in"] { lifetime = seconds }
            if case .string(let seconds)? = object["expires_in"], let parsed = TimeInterval(seconds) {
                lifetime = parsed
            }
            return (token, lifetime)
        }
    }

    /// Sends one request and reads its answer, all within the configured deadline.
    private func exchange(_ method: HTTPMethod, _ url: String, body: Data, contentType: String, bearer: String?)
        async throws -> Answer
    {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "content-type", value: contentType)
        request.headers.add(name: "accept", value: "application/json")
        request.headers.add(name: "user-agent", value: "Coffer-GoogleWallet/1")
        if let bearer { request.headers.add(name: "authorization", value: "Bearer " + bearer) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let deadline = OverallDeadline(seconds: configuration.requestTimeout)
        let http = client
        return try await deadline.run { [request] in
            let response = try await http.execute(request, timeout: deadline.duration.timeAmount)
            let body = try await response.body.collect(upTo: Self.maximumResponseBytes)
            return Answer(
                status: Int(response.status.code), body: Data(body.readableBytesView),
                retryAfter: RetryAfter.seconds(response.headers.first(name: "retry-after")))
        }
    }

    private static func encoded(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(value)
    }
}
