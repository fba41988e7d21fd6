import Foundation
import HTTPTypes
import Secrets
import Testing
import TokenAuthentication

/// What keeps the client's secret and refresh token where they belong: TLS, no redirects, and a store that is
/// only changed while it still holds the token that was sent.
@Suite("The token endpoint's transport, redirects, and refresh-token compare-and-set")
struct TokenEndpointSecurityTests {
    @Test(
        "an endpoint must be https unless it is this machine",
        arguments: [
            ("https://auth.example.com/token", true), ("http://auth.example.com/token", false),
            ("http://127.0.0.1:8080/token", true), ("http://localhost/token", true), ("http://[::1]:9/token", true),
            ("http://127.0.0.1.example.com/token", false), ("ftp://127.0.0.1/token", false),
        ])
    func transportSecurity(_ url: String, _ accepted: Bool) throws {
        let endpoint = TokenEndpoint(url: try #require(URL(string: url)))
        if accepted {
            try endpoint.checkTransportSecurity()
        } else {
            #expect(throws: TokenAuthenticationError.insecureEndpoint(url)) { try endpoint.checkTransportSecurity() }
        }
    }

    @Test("an http endpoint elsewhere is refused before anything is sent")
    func insecureEndpointSendsNothing() async throws {
        let transport = RecordingTransport()
        let fixture = try AuthenticatorFixture(
            credential: AuthenticatorFixture.clientCredentials,
            tokenURL: try #require(URL(string: "http://auth.example.com/token")), transport: transport)
        await #expect(throws: TokenAuthenticationError.insecureEndpoint("http://auth.example.com/token")) {
            try await fixture.authenticator.accessToken()
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("a redirect is not followed (it would resend the client secret): a typed rejection, one request")
    func redirectNotFollowed() async throws {
        let server = TokenServer()
        try await server.serve { tokenURL, _ in
            let elsewhere = tokenURL.absoluteString + "?stolen=1"
            await server.configure {
                $0.plan = [.init(status: .temporaryRedirect, body: "", headers: ["Location": elsewhere])]
            }
            let fixture = try AuthenticatorFixture(
                credential: AuthenticatorFixture.clientCredentials, tokenURL: tokenURL)
            await #expect {
                try await fixture.authenticator.accessToken()
            } throws: { error in
                guard case TokenAuthenticationError.rejected(status: 307, _, _) = error else { return false }
                return true
            }
            #expect(await server.received.count == 1, "the redirect was not followed")
        }
    }

    @Test("a rotated refresh token replaces only the one that was sent; invalid_grant clears only that one")
    func compareAndSet() async throws {
        let store = AggregateSecretsStore(
            backend: InMemoryBackend(), configuration: SecretsConfiguration(service: "cas"))
        try store.save(OAuthCredential.refreshToken("refresh-A", clientID: "reports"))
        let storage = AccessTokenStorage(store: store)

        #expect(try await storage.saveRotatedRefreshToken("refresh-B", replacing: "refresh-X") == false)
        #expect(try store.read(OAuthCredential.id)?.refreshToken == "refresh-A", "another process's token is kept")
        #expect(try await storage.saveRotatedRefreshToken("refresh-B", replacing: "refresh-A"))
        #expect(try store.read(OAuthCredential.id)?.refreshToken == "refresh-B")

        #expect(try await storage.clearRefreshToken("refresh-A") == false)
        #expect(try store.read(OAuthCredential.id)?.refreshToken == "refresh-B")
        #expect(try await storage.clearRefreshToken("refresh-B"))
        #expect(try store.read(OAuthCredential.id)?.refreshToken == nil)
    }

    @Test("invalid_grant for a token another process has replaced meanwhile leaves the newer token in the store")
    func invalidGrantKeepsNewerToken() async throws {
        let server = TokenServer()
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: .refreshToken("revoked", clientID: "reports"), tokenURL: tokenURL)
            // While the request is in flight, another process rotates the token in the shared store.
            let store = fixture.store
            await server.configure { $0.delay = .milliseconds(300) }
            let rotation = Task {
                try await Task.sleep(for: .milliseconds(100))
                try store.save(OAuthCredential.refreshToken("rotated-elsewhere", clientID: "reports"))
            }
            await #expect(
                throws: TokenAuthenticationError.invalidGrant(
                    description: "the refresh token is unknown", refreshTokenCleared: false)
            ) { try await fixture.authenticator.accessToken() }
            try await rotation.value
            #expect(try fixture.storedCredential()?.refreshToken == "rotated-elsewhere")
        }
    }
}

/// A transport that records requests and answers nothing (a request reaching it is a failure of the test).
final class RecordingTransport: HTTPTransport {
    private let recorded = Locked<[HTTPRequest]>([])
    var requests: [HTTPRequest] { recorded.withLock { $0 } }

    func send(_ request: HTTPRequest, body: Data) async throws -> (HTTPResponse, Data) {
        recorded.withLock { $0.append(request) }
        throw URLError(.cannotConnectToHost)
    }
}
