import Foundation
import HTTPTypes
import Logging
import Secrets

/// Exchanges a long-lived credential for short-lived access tokens at an OAuth 2.0 token endpoint, and hands the
/// same token to every caller until shortly before it expires.
///
/// ```swift
/// let authenticator = PublicRequestAuthenticator(
///     endpoint: TokenEndpoint(url: URL(string: "https://auth.example.com/oauth/token")!),
///     storage: AccessTokenStorage(store: store))
/// request.setValue("Bearer \(try await authenticator.accessToken())", forHTTPHeaderField: "Authorization")
/// ```
///
/// - Many callers while no token is cached cause one request; they all get its token, or all get its error, and
///   the next call tries again.
/// - A rotated refresh token is saved to the credential store before the new access token is handed out.
/// - `invalid_grant` for a refresh token clears it from the store and says so.
/// - 5xx, 429 and transport failures are retried with exponential backoff (``RetryPolicy``); 4xx are not.
/// - The cached token is dropped ``Configuration/refreshMargin`` before it expires, and at the latest
///   ``Configuration/clearAfter`` after it was issued, by a cancellable sleep on the injected clock.
public actor PublicRequestAuthenticator {
    /// How the authenticator behaves.
    public struct Configuration: Sendable {
        /// The token endpoint.
        public var endpoint: TokenEndpoint
        /// How long before its expiry a token is no longer handed out (so that it does not expire in flight).
        public var refreshMargin: Duration
        /// How long a token without `expires_in` is used.
        public var defaultLifetime: Duration
        /// The longest a token is kept in memory after it was issued, whatever its lifetime (`nil`: until it
        /// expires).
        public var clearAfter: Duration?
        /// Retries for failing servers.
        public var retry: RetryPolicy

        /// A configuration; by default tokens are refreshed 30 s before expiry and kept at most until then.
        public init(
            endpoint: TokenEndpoint, refreshMargin: Duration = .seconds(30), defaultLifetime: Duration = .seconds(300),
            clearAfter: Duration? = nil, retry: RetryPolicy = RetryPolicy()
        ) {
            self.endpoint = endpoint
            self.refreshMargin = refreshMargin
            self.defaultLifetime = defaultLifetime
            self.clearAfter = clearAfter
            self.retry = retry
        }
    }

    /// The configuration.
    public nonisolated let configuration: Configuration
    private let storage: AccessTokenStorage
    private let transport: any HTTPTransport
    private let clock: any CofferClock
    private let logger: Logger

    private var cached: AccessToken?
    private var pending: Task<AccessToken, any Error>?
    private var clearing: Task<Void, Never>?
    private var generation = 0

    /// An authenticator for `configuration`, with its credential in `storage`.
    public init(
        configuration: Configuration, storage: AccessTokenStorage, transport: any HTTPTransport = URLSessionTransport(),
        clock: any CofferClock = SystemClock(),
        logger: Logger = Logger(label: "coffer.token-authentication")
    ) {
        self.configuration = configuration
        self.storage = storage
        self.transport = transport
        self.clock = clock
        self.logger = logger
    }

    /// An authenticator for `endpoint` with the default configuration.
    public init(
        endpoint: TokenEndpoint, storage: AccessTokenStorage, transport: any HTTPTransport = URLSessionTransport()
    ) {
        self.init(configuration: Configuration(endpoint: endpoint), storage: storage, transport: transport)
    }

    deinit {
        clearing?.cancel()
    }

    /// A valid access token: the cached one, or a new one from the endpoint.
    public func accessToken() async throws(TokenAuthenticationError) -> String {
        try await token().value
    }

    /// A valid access token with its type, scope and expiry.
    public func token() async throws(TokenAuthenticationError) -> AccessToken {
        if let cached, clock.uptime < cached.expiresAt - configuration.refreshMargin { return cached }
        let request: Task<AccessToken, any Error>
        if let pending {
            request = pending
        } else {
            request = Task { try await self.requestToken() }
            pending = request
        }
        let result = await request.result
        if pending == request { pending = nil }
        switch result {
        case .success(let token):
            return token
        case .failure(let error as TokenAuthenticationError):
            throw error
        case .failure(is CancellationError):
            throw .cancelled
        case .failure(let error):
            throw .malformedResponse("\(type(of: error))")
        }
    }

    /// Forgets the cached token, so that the next call asks for a new one (after an API answered 401, say).
    public func invalidate() {
        cached = nil
        clearing?.cancel()
        clearing = nil
        generation += 1
    }

    /// Whether a token is cached and still handed out.
    public var hasValidToken: Bool {
        guard let cached else { return false }
        return clock.uptime < cached.expiresAt - configuration.refreshMargin
    }

    /// Asks the endpoint for a token, retrying failures that may pass, and caches it.
    private func requestToken() async throws -> AccessToken {
        let credential = try await storage.credential()
        try configuration.endpoint.checkTransportSecurity()
        let (request, body) = configuration.endpoint.request(for: credential)
        var attempt = 0
        while true {
            attempt += 1
            let response: HTTPResponse
            let responseBody: Data
            do {
                (response, responseBody) = try await transport.send(request, body: body)
            } catch is CancellationError {
                throw TokenAuthenticationError.cancelled
            } catch {
                guard attempt < configuration.retry.maximumAttempts else {
                    throw TokenAuthenticationError.transport(reason: Self.reason(error), attempts: attempt)
                }
                try await backOff(after: attempt, reason: "unreachable")
                continue
            }
            let status = response.status.code
            switch status {
            case 200..<300:
                return try await accept(responseBody, credential: credential)
            case 300..<400:
                // The transport does not follow redirects: following one would send the client secret or the
                // refresh token to wherever the Location header points.
                throw TokenAuthenticationError.rejected(
                    status: status, error: nil,
                    description:
                        "the token endpoint redirected, and redirects are not followed; configure its final URL")
            case 429, 500..<600:
                guard attempt < configuration.retry.maximumAttempts else {
                    throw TokenAuthenticationError.serverUnavailable(status: status, attempts: attempt)
                }
                try await backOff(
                    after: attempt, reason: "HTTP \(status)",
                    retryAfter: response.headerFields[.retryAfter].flatMap(Int.init).map { .seconds($0) })
            default:
                throw try await rejection(status: status, body: responseBody, credential: credential)
            }
        }
    }

    private func backOff(after attempt: Int, reason: String, retryAfter: Duration? = nil) async throws {
        let delay = configuration.retry.delay(after: attempt, retryAfter: retryAfter)
        logger.notice(
            "token request failed; retrying",
            metadata: ["attempt": "\(attempt)", "reason": "\(reason)", "delay": "\(delay)"])
        do {
            try await clock.sleep(for: delay)
        } catch {
            throw TokenAuthenticationError.cancelled
        }
    }

    /// Reads a token response, saves a rotated refresh token, and caches the token.
    private func accept(_ body: Data, credential: OAuthCredential) async throws -> AccessToken {
        let parsed: TokenResponse
        do {
            parsed = try JSONDecoder().decode(TokenResponse.self, from: body)
        } catch let error as DecodingError {
            throw TokenAuthenticationError.malformedResponse(Self.reason(error))
        }
        guard !parsed.accessToken.isEmpty else {
            throw TokenAuthenticationError.malformedResponse("access_token is empty")
        }
        let lifetime = parsed.lifetime ?? configuration.defaultLifetime
        if let rotated = parsed.refreshToken, credential.grant == .refreshToken, rotated != credential.refreshToken {
            if try await storage.saveRotatedRefreshToken(rotated, replacing: credential.refreshToken) {
                logger.info("saved a rotated refresh token")
            } else {
                logger.notice("kept the stored refresh token: another process rotated it meanwhile")
            }
        }
        let issuedAt = clock.uptime
        let token = AccessToken(
            value: parsed.accessToken, tokenType: parsed.tokenType, scope: parsed.scope,
            expiresAt: issuedAt + lifetime)
        cache(token, keepFor: min(lifetime, configuration.clearAfter ?? lifetime))
        return token
    }

    /// The error for a 4xx answer; `invalid_grant` for a refresh token clears it from the store first.
    private func rejection(status: Int, body: Data, credential: OAuthCredential) async throws
        -> TokenAuthenticationError
    {
        let oauth = try? JSONDecoder().decode(OAuthErrorResponse.self, from: body)
        if oauth?.error == "invalid_grant" {
            var cleared = false
            if credential.grant == .refreshToken {
                cleared = try await storage.clearRefreshToken(credential.refreshToken)
                logger.warning(
                    cleared
                        ? "the refresh token was rejected (invalid_grant) and cleared"
                        : "the refresh token was rejected (invalid_grant); a newer one in the store was kept")
            }
            return .invalidGrant(description: oauth?.errorDescription, refreshTokenCleared: cleared)
        }
        return .rejected(status: status, error: oauth?.error, description: oauth?.errorDescription)
    }

    /// Caches `token` and schedules its removal after `duration`.
    private func cache(_ token: AccessToken, keepFor duration: Duration) {
        clearing?.cancel()
        generation += 1
        let scheduled = generation
        cached = token
        let clock = clock
        clearing = Task { [weak self] in
            guard (try? await clock.sleep(for: duration)) != nil else { return }
            await self?.clear(generation: scheduled)
        }
    }

    private func clear(generation scheduled: Int) {
        guard scheduled == generation else { return }
        cached = nil
        clearing = nil
    }

    /// An error's text for a message, without anything the request carried.
    private static func reason(_ error: any Error) -> String {
        if let error = error as? URLError { return "URLError \(error.code.rawValue): \(error.localizedDescription)" }
        if case DecodingError.dataCorrupted(let context) = error { return context.debugDescription }
        if case DecodingError.keyNotFound(let key, _) = error { return "\(key.stringValue) is missing" }
        if case DecodingError.typeMismatch(_, let context) = error {
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type"
        }
        if case DecodingError.valueNotFound(_, let context) = error {
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is null"
        }
        return "\(type(of: error))"
    }
}
