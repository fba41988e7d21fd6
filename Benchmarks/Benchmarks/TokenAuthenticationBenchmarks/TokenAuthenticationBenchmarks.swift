import Benchmark
import Foundation
import HTTPTypes
import Secrets
import TokenAuthentication

/// `accessToken()` when the token is cached (the path nearly every API request takes), and a token request
/// end to end over a transport that answers at once (form encoding, JSON parsing, caching: the client's own cost).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 100_000)

    /// A token endpoint that answers every request at once with a fresh token.
    struct InstantEndpoint: HTTPTransport {
        func send(_ request: HTTPRequest, body: Data) async throws -> (HTTPResponse, Data) {
            (HTTPResponse(status: .ok), Data(#"{"access_token":"a","token_type":"Bearer","expires_in":3600}"#.utf8))
        }
    }

    func authenticator() throws -> PublicRequestAuthenticator {
        let store = AggregateSecretsStore(backend: InMemoryBackend())
        try store.save(OAuthCredential.clientCredentials(clientID: "bench", clientSecret: "secret", scope: "read"))
        return PublicRequestAuthenticator(
            configuration: .init(endpoint: TokenEndpoint(url: URL(string: "https://auth.example.com/token")!)),
            storage: AccessTokenStorage(store: store), transport: InstantEndpoint())
    }

    Benchmark("PublicRequestAuthenticator accessToken, cached") { benchmark in
        let authenticator = try authenticator()
        _ = try await authenticator.accessToken()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await authenticator.accessToken()) }
    }

    Benchmark("PublicRequestAuthenticator token request, instant endpoint") { benchmark in
        let authenticator = try authenticator()
        for _ in benchmark.scaledIterations {
            await authenticator.invalidate()
            blackHole(try await authenticator.accessToken())
        }
    }
}
