import Foundation
import Secrets
import TokenAuthentication

/// A credential store with one credential, and an authenticator on a manual clock for a token URL.
struct AuthenticatorFixture {
    let store: AggregateSecretsStore
    let storage: AccessTokenStorage
    let clock = ManualAuthenticatorClock()
    let authenticator: PublicRequestAuthenticator

    init(
        credential: OAuthCredential?, tokenURL: URL, clientAuthentication: TokenEndpoint.ClientAuthentication = .basic,
        clearAfter: Duration? = nil, retry: RetryPolicy = RetryPolicy(),
        transport: any HTTPTransport = URLSessionTransport(timeout: 5)
    ) throws {
        store = AggregateSecretsStore(backend: InMemoryBackend(), configuration: Configuration(service: "token-tests"))
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
