import Foundation
import Secrets
import TokenAuthentication

/// A credential store with one credential, and an authenticator on a manual clock for a token URL.
///
/// The authenticator waits between attempts on ``clock``, which moves only when the test moves it
/// (``ManualClock/advance(by:)``, ``advancingClock(by:_:)``). A retry in a test that does not would wait
/// for ever with nothing left to wake it: no thread busy, no timer armed, the test process idle. That was the wedge
/// the soak tests found (.ci/README.md): on a loaded machine the in-process `TokenServer` answered after the transport's 5 s timeout,
/// the authenticator backed off on this clock, and the run hung. So retries are opt-in (a test that exercises them
/// passes `retry:` and drives the clock), and the transport's timeout only has to end a dead connection: a late
/// answer from a busy test process is still an answer.
struct AuthenticatorFixture {
    let store: AggregateSecretsStore
    let storage: AccessTokenStorage
    let clock = ManualClock()
    let authenticator: PublicRequestAuthenticator

    /// One attempt: a failure is the test's result, never a backoff on a clock nobody moves.
    static let noRetry = RetryPolicy(maximumAttempts: 1)
    /// Long enough for a two-core machine running the whole suite in parallel (and a soak's competing load).
    static let transportTimeout: TimeInterval = 120

    init(
        credential: OAuthCredential?, tokenURL: URL, clientAuthentication: TokenEndpoint.ClientAuthentication = .basic,
        clearAfter: Duration? = nil, retry: RetryPolicy = AuthenticatorFixture.noRetry,
        transport: any HTTPTransport = URLSessionTransport(timeout: AuthenticatorFixture.transportTimeout)
    ) throws {
        store = AggregateSecretsStore(
            backend: InMemoryBackend(), configuration: SecretsConfiguration(service: "token-tests"))
        if let credential { try store.save(credential) }
        storage = AccessTokenStorage(store: store)
        authenticator = PublicRequestAuthenticator(
            configuration: .init(
                endpoint: TokenEndpoint(url: tokenURL, clientAuthentication: clientAuthentication),
                clearAfter: clearAfter, retry: retry),
            storage: storage, transport: transport, clock: clock)
    }

    static let clientCredentials = OAuthCredential.clientCredentials(
        clientID: "reports", clientSecret: "s3cr3t:/+ é", scope: "read write")

    /// The credential in the store now.
    func storedCredential() throws -> OAuthCredential? { try store.read(OAuthCredential.id) }

    /// Runs `operation` while moving the clock on by `step` whenever something sleeps on it (a backoff), until it
    /// finishes.
    func advancingClock<T: Sendable>(
        by step: Duration = .seconds(60), _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let task = Task { try await operation() }
        let clock = clock
        let driver = Task {
            while !Task.isCancelled {
                if clock.pendingSleeps > 0 { clock.advance(by: step) }
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        defer { driver.cancel() }
        return try await task.value
    }
}
