import CofferTestSupport
import Foundation
import HTTPTypes
@_spi(Testing) import Secrets
import SecretsKeychain
import TokenAuthentication
import Testing

@Suite("PublicRequestAuthenticator against a real token endpoint on loopback", .serialized, .timeLimit(.minutes(1)))
struct PublicRequestAuthenticatorTests {
    @Test("client credentials go in a Basic header (form-encoded), scope in the body; the token is cached")
    func clientCredentialsBasic() async throws {
        let server = TokenServer()
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: AuthenticatorFixture.clientCredentials, tokenURL: tokenURL)
            #expect(try await fixture.authenticator.accessToken() == "access-1")
            #expect(try await fixture.authenticator.accessToken() == "access-1")
            let token = try await fixture.authenticator.token()
            #expect(token.scope == "read write")
            #expect(token.tokenType == "Bearer")
            #expect(!"\(token)".contains("access-1"))

            let received = await server.received
            #expect(received.count == 1)
            #expect(received[0].form == ["grant_type": "client_credentials", "scope": "read write"])
            #expect(
                received[0].authorization
                    == HTTPBasic.authorization(user: "reports", password: "s3cr3t%3A%2F%2B+%C3%A9"))
        }
    }

    @Test("client credentials in the request body when the endpoint asks for it")
    func clientCredentialsInBody() async throws {
        let server = TokenServer()
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: AuthenticatorFixture.clientCredentials, tokenURL: tokenURL,
                clientAuthentication: .requestBody)
            #expect(try await fixture.authenticator.accessToken() == "access-1")
            let received = await server.received
            #expect(received[0].authorization == nil)
            #expect(received[0].form["client_id"] == "reports")
            #expect(received[0].form["client_secret"] == "s3cr3t:/+ é")
        }
    }

    @Test("100 concurrent callers with nothing cached cause exactly one request and share its token")
    func singleFlight() async throws {
        let server = TokenServer()
        await server.configure { $0.delay = .milliseconds(300) }
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: AuthenticatorFixture.clientCredentials, tokenURL: tokenURL)
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<100 { group.addTask { try await fixture.authenticator.accessToken() } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(tokens.count == 100)
            #expect(Set(tokens) == ["access-1"])
            #expect(await server.received.count == 1)
        }
    }

    @Test("a token is handed out until the refresh margin before expires_in, then a new one is fetched")
    func expiryAndRefresh() async throws {
        let server = TokenServer()
        await server.configure { $0.expiresIn = "120" }
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: AuthenticatorFixture.clientCredentials, tokenURL: tokenURL)
            #expect(try await fixture.authenticator.accessToken() == "access-1")
            fixture.clock.advance(by: .seconds(89))
            #expect(try await fixture.authenticator.accessToken() == "access-1")
            fixture.clock.advance(by: .seconds(2))
            #expect(await fixture.authenticator.hasValidToken == false)
            #expect(try await fixture.authenticator.accessToken() == "access-2")
            #expect(await server.received.count == 2)
        }
    }

    @Test("expires_in as a string is accepted; without it the default lifetime applies")
    func lifetimes() async throws {
        let server = TokenServer()
        await server.configure { $0.expiresIn = #""60""# }
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: AuthenticatorFixture.clientCredentials, tokenURL: tokenURL)
            #expect(try await fixture.authenticator.token().expiresAt == .seconds(60))
            await server.configure { $0.expiresIn = nil }
            await fixture.authenticator.invalidate()
            #expect(try await fixture.authenticator.token().expiresAt == .seconds(300))
        }
    }

    @Test(
        "an enormous expires_in is held to ten years instead of trapping; a negative one expires at once",
        arguments: [("1e16", Duration.seconds(315_360_000)), ("1e300", .seconds(315_360_000)), ("-5", .zero)])
    func extremeLifetimes(_ expiresIn: String, _ expected: Duration) async throws {
        let server = TokenServer()
        await server.configure { $0.expiresIn = expiresIn }
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: AuthenticatorFixture.clientCredentials, tokenURL: tokenURL)
            #expect(try await fixture.authenticator.token().expiresAt == expected)
        }
    }

    @Test("the cached token is cleared after clearAfter by a sleep that invalidate() cancels")
    func clearAfter() async throws {
        let server = TokenServer()
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: AuthenticatorFixture.clientCredentials, tokenURL: tokenURL, clearAfter: .seconds(10))
            _ = try await fixture.authenticator.accessToken()
            await fixture.clock.waitForSleeps(1)
            fixture.clock.advance(by: .seconds(10))
            while await fixture.authenticator.hasValidToken { try await Task.sleep(for: .milliseconds(1)) }
            #expect(try await fixture.authenticator.accessToken() == "access-2")

            await fixture.clock.waitForSleeps(1)
            await fixture.authenticator.invalidate()
            while fixture.clock.pendingSleeps > 0 { try await Task.sleep(for: .milliseconds(1)) }
            #expect(try await fixture.authenticator.accessToken() == "access-3")
        }
    }

    @Test("a rotated refresh token is saved to the encrypted store on disk and used for the next refresh")
    func rotation() async throws {
        let server = TokenServer()
        await server.configure { $0.rotatesRefreshTokens = true }
        let directory = try TemporaryDirectory(prefix: "coffer-rotation")
        @Sendable func openStore() throws -> AggregateSecretsStore {
            AggregateSecretsStore(
                backend: try EncryptedFileBackend(
                    directory: directory.url, key: .passphrase("rotation"), options: .weakKeyDerivationForTesting()))
        }
        try openStore().save(OAuthCredential.refreshToken("refresh-0", clientID: "reports"))
        try await server.serve { tokenURL, _ in
            let authenticator = PublicRequestAuthenticator(
                configuration: .init(endpoint: TokenEndpoint(url: tokenURL, clientAuthentication: .requestBody)),
                storage: AccessTokenStorage(store: try openStore()), clock: ManualClock())
            #expect(try await authenticator.accessToken() == "access-1")
            let reopened = try #require(try openStore().read(OAuthCredential.id))
            #expect(reopened.refreshToken == "refresh-1")
            #expect(reopened.clientID == "reports")
            await authenticator.invalidate()
            #expect(try await authenticator.accessToken() == "access-2")
            #expect(try openStore().read(OAuthCredential.id)?.refreshToken == "refresh-2")
            let forms = await server.received.map(\.form)
            #expect(forms.map { $0["refresh_token"] } == ["refresh-0", "refresh-1"])
        }
    }

    @Test("invalid_grant clears the stored refresh token and says so; the next call reports the missing token")
    func invalidGrant() async throws {
        let server = TokenServer()
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: .refreshToken("revoked", clientID: "reports"), tokenURL: tokenURL)
            await #expect(
                throws: TokenAuthenticationError.invalidGrant(
                    description: "the refresh token is unknown", refreshTokenCleared: true)
            ) { try await fixture.authenticator.accessToken() }
            let stored = try #require(try fixture.storedCredential())
            #expect(stored.refreshToken == nil)
            #expect(stored.clientID == "reports")
            await #expect {
                try await fixture.authenticator.accessToken()
            } throws: { error in
                guard case TokenAuthenticationError.missingCredential(let reason) = error else { return false }
                return reason.contains("refreshToken is missing")
            }
            #expect(await server.received.count == 1)
        }
    }

    @Test("a refused client (401 with WWW-Authenticate) is a typed rejection, not a hang")
    func invalidClient() async throws {
        let server = TokenServer()
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: .clientCredentials(clientID: "reports", clientSecret: "wrong"), tokenURL: tokenURL)
            await #expect {
                try await fixture.authenticator.accessToken()
            } throws: { error in
                guard case TokenAuthenticationError.rejected(401, _, _) = error else { return false }
                return !"\(error)".contains("wrong")
            }
            #expect(await server.received.count == 1)
        }
    }

    @Test("a failure is shared by every waiter, and the next call tries again")
    func sharedFailure() async throws {
        let server = TokenServer()
        await server.configure {
            $0.delay = .milliseconds(200)
            $0.plan = [
                .init(status: .badRequest, body: #"{"error":"invalid_scope","error_description":"no such scope"}"#)
            ]
        }
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: AuthenticatorFixture.clientCredentials, tokenURL: tokenURL)
            let errors = await withTaskGroup(of: TokenAuthenticationError?.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        do throws(TokenAuthenticationError) {
                            _ = try await fixture.authenticator.accessToken()
                            return nil
                        } catch {
                            return error
                        }
                    }
                }
                return await group.reduce(into: [TokenAuthenticationError?]()) { $0.append($1) }
            }
            #expect(Set(errors) == [.rejected(status: 400, error: "invalid_scope", description: "no such scope")])
            #expect(await server.received.count == 1)
            #expect(try await fixture.authenticator.accessToken() == "access-1")
            #expect(await server.received.count == 2)
        }
    }

    @Test("5xx and 429 are retried with backoff (Retry-After honoured) until a token comes")
    func retriesServerErrors() async throws {
        let server = TokenServer()
        await server.configure {
            $0.plan = [
                .init(status: .internalServerError, body: "oops"),
                .init(status: .tooManyRequests, body: "slow down", headers: ["Retry-After": "5"]),
                .init(status: .serviceUnavailable, body: ""),
            ]
        }
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: AuthenticatorFixture.clientCredentials, tokenURL: tokenURL, retry: RetryPolicy())
            let request = Task { try await fixture.authenticator.accessToken() }
            await fixture.clock.waitForSleeps(1)
            fixture.clock.advance(by: .milliseconds(500))
            await waitForRequests(server, 2)
            await fixture.clock.waitForSleeps(1)
            fixture.clock.advance(by: .seconds(4))
            #expect(await server.received.count == 2, "Retry-After: 5 is still running")
            fixture.clock.advance(by: .seconds(1))
            await waitForRequests(server, 3)
            await fixture.clock.waitForSleeps(1)
            fixture.clock.advance(by: .seconds(2))
            #expect(try await request.value == "access-1")
            #expect(await server.received.count == 4)
        }
    }

    @Test("a server that keeps failing is a typed error after the last attempt; the next call starts over")
    func serverKeepsFailing() async throws {
        let server = TokenServer()
        await server.configure {
            $0.plan = Array(repeating: .init(status: .badGateway, body: "<html>bad gateway</html>"), count: 3)
        }
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: AuthenticatorFixture.clientCredentials, tokenURL: tokenURL,
                retry: RetryPolicy(maximumAttempts: 3, initialDelay: .seconds(1), maximumDelay: .seconds(2)))
            await #expect(throws: TokenAuthenticationError.serverUnavailable(status: 502, attempts: 3)) {
                try await fixture.advancingClock { try await fixture.authenticator.accessToken() }
            }
            #expect(try await fixture.authenticator.accessToken() == "access-1")
        }
    }

    @Test("an unreachable endpoint is retried, then a typed transport error")
    func unreachable() async throws {
        let closedPort = URL(string: "http://127.0.0.1:9/oauth/token")!
        let fixture = try AuthenticatorFixture(
            credential: AuthenticatorFixture.clientCredentials, tokenURL: closedPort,
            retry: RetryPolicy(maximumAttempts: 3))
        await #expect {
            try await fixture.advancingClock { try await fixture.authenticator.accessToken() }
        } throws: { error in
            guard case TokenAuthenticationError.transport(_, attempts: 3) = error else { return false }
            return true
        }
    }

    @Test(
        "answers that are not token responses are typed errors",
        arguments: [
            #"<html>login</html>"#, #"{"token_type":"Bearer"}"#, #"{"access_token":"","token_type":"Bearer"}"#,
            #"{"access_token":"a","token_type":"Bearer","expires_in":"soon"}"#, #"{"access_token":"a""#,
            #"{"access_token":"a","token_type":"Bearer","expires_in":"Infinity"}"#,
            #"{"access_token":"a","token_type":"Bearer","expires_in":"nan"}"#,
            #"{"access_token":"a","token_type":"Bearer","expires_in":"-inf"}"#,
        ])
    func malformed(_ body: String) async throws {
        let server = TokenServer()
        await server.configure { $0.plan = [.init(status: .ok, body: body)] }
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: AuthenticatorFixture.clientCredentials, tokenURL: tokenURL)
            await #expect {
                try await fixture.authenticator.accessToken()
            } throws: { error in
                guard case TokenAuthenticationError.malformedResponse = error else { return false }
                return true
            }
        }
    }

    @Test("an API key is exchanged with the endpoint's extension grant")
    func apiKey() async throws {
        let server = TokenServer()
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(credential: .apiKey("api-key-1"), tokenURL: tokenURL)
            #expect(try await fixture.authenticator.accessToken() == "access-1")
            #expect(
                await server.received[0].form
                    == ["grant_type": "urn:ibm:params:oauth:grant-type:apikey", "apikey": "api-key-1"])
        }
    }

    @Test("no credential, or a locked store, is a typed error before any request")
    func credentialErrors() async throws {
        let server = TokenServer()
        try await server.serve { tokenURL, _ in
            let empty = try AuthenticatorFixture(credential: nil, tokenURL: tokenURL)
            await #expect {
                try await empty.authenticator.accessToken()
            } throws: { error in
                guard case TokenAuthenticationError.missingCredential = error else { return false }
                return true
            }
            let keychain = SecItemEmulator()
            let store = AggregateSecretsStore(backend: AppleKeychainBackend(emulator: keychain))
            try store.save(AuthenticatorFixture.clientCredentials)
            keychain.setLocked(true)
            let locked = PublicRequestAuthenticator(
                configuration: .init(endpoint: TokenEndpoint(url: tokenURL)), storage: AccessTokenStorage(store: store),
                clock: ManualClock())
            await #expect {
                try await locked.accessToken()
            } throws: { error in
                guard case TokenAuthenticationError.credentialStore(.locked) = error else { return false }
                return true
            }
            #expect(await server.received.isEmpty)
        }
    }

    @Test("credentials, tokens and errors never print a secret")
    func redaction() {
        let credential = AuthenticatorFixture.clientCredentials
        #expect("\(credential)" == "<redacted>")
        #expect(String(reflecting: credential) == "<redacted>")
        let errors: [TokenAuthenticationError] = [
            .missingCredential("r"), .credentialStore(.locked("k")),
            .invalidGrant(description: "d", refreshTokenCleared: true),
            .rejected(status: 401, error: "invalid_client", description: nil),
            .serverUnavailable(status: 503, attempts: 4),
            .transport(reason: "refused", attempts: 2), .malformedResponse("m"), .cancelled,
            .insecureEndpoint("http://auth.example.com/token"),
        ]
        #expect(Set(errors.map(\.description)).count == errors.count)
    }

    @Test("an access token prints, debug-prints and dumps without its value")
    func accessTokenRedaction() async throws {
        let server = TokenServer()
        try await server.serve { tokenURL, _ in
            let fixture = try AuthenticatorFixture(
                credential: AuthenticatorFixture.clientCredentials, tokenURL: tokenURL)
            let token = try await fixture.authenticator.token()
            var dumped = ""
            dump(token, to: &dumped)
            for text in ["\(token)", String(reflecting: token), dumped] {
                #expect(!text.contains(token.value), "\(text)")
                #expect(text.contains("<redacted>"))
            }
            #expect(dumped.contains("Bearer"), "the rest still shows")
        }
    }

    private func waitForRequests(_ server: TokenServer, _ count: Int) async {
        while await server.received.count < count { try? await Task.sleep(for: .milliseconds(2)) }
    }
}
