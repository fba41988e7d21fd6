import CofferTestSupport
import Foundation
@_spi(Testing) import Secrets
import SecretsKeychain
import Testing
import TokenAuthentication

/// A store that only reads and writes typed secrets (a third party's, say), over a real one.
struct TypedOnlyStore: SecretsStoring {
    let base: AggregateSecretsStore
    func save<C: SecretCoder>(_ secret: C) throws { try base.save(secret) }
    func read<C: SecretCoder>(_ id: ServiceID<C>) throws -> C? { try base.read(id) }
    func delete<C: SecretCoder>(_ id: ServiceID<C>) throws { try base.delete(id) }
    func listAccounts() throws -> [String] { try base.listAccounts() }
}

@Suite(
    "AccessTokenStorage on a shared SecretsStore: same behaviour, with compare-and-swap across storages",
    .timeLimit(.minutes(2)))
struct AccessTokenStorageSharedStoreTests {
    let directory: TemporaryDirectory
    let secrets: SecretsStore

    init() throws {
        directory = try TemporaryDirectory(prefix: "coffer-token-store")
        secrets = SecretsStore(
            backend: try EncryptedFileBackend(
                directory: directory.url, key: .passphrase("shared"), options: .weakKeyDerivationForTesting()))
    }

    private func storedToken(at id: ServiceID<OAuthCredential> = OAuthCredential.id) async throws -> String? {
        try await secrets.read(id)?.refreshToken
    }

    @Test("the authenticator rotates refresh tokens through the shared store, which reports each rotation")
    func authenticatorRotation() async throws {
        let server = TokenServer()
        await server.configure { $0.rotatesRefreshTokens = true }
        try await secrets.save(OAuthCredential.refreshToken("refresh-0", clientID: "reports"))
        var changes = secrets.changes().makeAsyncIterator()
        try await server.serve { (tokenURL: URL, _: URL) async throws in
            let authenticator = PublicRequestAuthenticator(
                configuration: .init(endpoint: TokenEndpoint(url: tokenURL, clientAuthentication: .requestBody)),
                storage: AccessTokenStorage(store: secrets), clock: ManualClock())
            #expect(try await authenticator.accessToken() == "access-1")
            #expect(try await storedToken() == "refresh-1")
            await authenticator.invalidate()
            #expect(try await authenticator.accessToken() == "access-2")
            #expect(try await secrets.read(OAuthCredential.id)?.clientID == "reports")
            #expect(try await storedToken() == "refresh-2")
            #expect(await server.received.map(\.form).map { $0["refresh_token"] } == ["refresh-0", "refresh-1"])
        }
        for _ in 1...2 {
            #expect(await changes.next() == SecretsStoreChange(account: "oauth/credential", kind: .saved))
        }
    }

    @Test(
        "a credential saved to the store directly is read next; a rotation from the token it replaced fails"
    )
    func directSaves() async throws {
        let storage = AccessTokenStorage(store: secrets)
        try await secrets.save(OAuthCredential.refreshToken("refresh-0", clientID: "reports"))
        #expect(try await storage.credential().refreshToken == "refresh-0")

        try await secrets.save(OAuthCredential.refreshToken("signed-in-again", clientID: "reports"))
        #expect(try await storage.credential().refreshToken == "signed-in-again")
        #expect(try await !storage.saveRotatedRefreshToken("refresh-1", replacing: "refresh-0"))
        #expect(try await !storage.clearRefreshToken("refresh-0"))
        #expect(try await storedToken() == "signed-in-again")

        #expect(try await storage.saveRotatedRefreshToken("refresh-1", replacing: "signed-in-again"))
        #expect(try await storedToken() == "refresh-1")
    }

    @Test("rotations racing through two storages on one store: one winner a round, no newer token overwritten")
    func concurrentRotation() async throws {
        let storages = [AccessTokenStorage(store: secrets), AccessTokenStorage(store: secrets)]
        try await secrets.save(OAuthCredential.refreshToken("t-0", clientID: "reports"))
        var current = "t-0"
        for round in 1...25 {
            let sent = current
            let winners = try await withThrowingTaskGroup(of: String?.self) { group in
                for contender in 0..<8 {
                    let storage = storages[contender % 2]
                    let token = "t-\(round)-\(contender)"
                    group.addTask { try await storage.saveRotatedRefreshToken(token, replacing: sent) ? token : nil }
                }
                return try await group.reduce(into: [String]()) { if let token = $1 { $0.append(token) } }
            }
            #expect(winners.count == 1, "round \(round): \(winners.count) storages replaced \(sent)")
            let stored = try #require(try await storedToken())
            #expect(winners.first == stored, "round \(round): the stored token is the one rotation that won")
            current = stored
        }
        #expect(try await secrets.read(OAuthCredential.id)?.clientID == "reports")
    }

    @Test("a refresh token rejected by the server is cleared only if it is still the stored one")
    func clearing() async throws {
        let storage = AccessTokenStorage(store: secrets)
        try await secrets.save(OAuthCredential.refreshToken("t-1", clientID: "reports"))
        #expect(try await !storage.clearRefreshToken("t-0"))
        #expect(try await storedToken() == "t-1")
        #expect(try await storage.clearRefreshToken("t-1"))
        #expect(try await storedToken() == nil)
        #expect(try await secrets.read(OAuthCredential.id)?.clientID == "reports")
        await #expect {
            _ = try await storage.credential()
        } throws: { error in
            guard case TokenAuthenticationError.missingCredential(let reason) = error else { return false }
            return reason.contains("refreshToken is missing")
        }
    }

    @Test("a credential at a path of its own is rotated there, and the default path is left alone")
    func customPath() async throws {
        let id = ServiceID<OAuthCredential>(path: "oauth/reports")
        let storage = AccessTokenStorage(store: secrets, id: id)
        try await secrets.save(OAuthCredential.refreshToken("default", clientID: "other"))
        try await secrets.save(try OAuthCredential.refreshToken("r-0", clientID: "reports").encode(), account: id.path)
        #expect(try await storage.credential().clientID == "reports")
        #expect(try await storage.saveRotatedRefreshToken("r-1", replacing: "r-0"))
        #expect(try await storedToken(at: id) == "r-1")
        #expect(try await storedToken() == "default")
    }

    @Test("a missing credential and unreadable bytes are typed errors, and the bytes are left in place")
    func typedErrors() async throws {
        let storage = AccessTokenStorage(store: secrets)
        await #expect {
            _ = try await storage.credential()
        } throws: { error in
            guard case TokenAuthenticationError.missingCredential = error else { return false }
            return true
        }
        await #expect {
            try await storage.saveRotatedRefreshToken("r-1", replacing: nil)
        } throws: { error in
            guard case TokenAuthenticationError.missingCredential = error else { return false }
            return true
        }

        let garbage = Data("not a credential".utf8)
        try await secrets.save(garbage, account: OAuthCredential.id.path)
        for attempt in 0..<2 {
            await #expect {
                if attempt == 0 {
                    _ = try await storage.credential()
                } else {
                    try await storage.saveRotatedRefreshToken("r-1", replacing: nil)
                }
            } throws: { error in
                guard case TokenAuthenticationError.credentialStore(.decodingFailed(let account, _, _)) = error
                else { return false }
                return account == OAuthCredential.id.path
            }
        }
        #expect(try await secrets.read(account: OAuthCredential.id.path) == garbage)
    }

    @Test("a locked keychain under the store is a typed error for reads and rotations, and loses nothing")
    func locked() async throws {
        let keychain = SecItemEmulator()
        let secrets = SecretsStore(backend: AppleKeychainBackend(emulator: keychain))
        let storage = AccessTokenStorage(store: secrets)
        try await secrets.save(OAuthCredential.refreshToken("kept", clientID: "reports"))
        keychain.setLocked(true)
        await #expect {
            _ = try await storage.credential()
        } throws: { error in
            guard case TokenAuthenticationError.credentialStore(.locked) = error else { return false }
            return true
        }
        await #expect {
            try await storage.saveRotatedRefreshToken("new", replacing: "kept")
        } throws: { error in
            guard case TokenAuthenticationError.credentialStore(.locked) = error else { return false }
            return true
        }
        keychain.setLocked(false)
        #expect(try await secrets.read(OAuthCredential.id)?.refreshToken == "kept")
    }

    @Test("over a store that only writes typed secrets, the default path works and another is unsupported")
    func typedOnlyStore() async throws {
        let base = AggregateSecretsStore(backend: InMemoryBackend())
        try base.save(OAuthCredential.refreshToken("t-0", clientID: "reports"))
        let storage = AccessTokenStorage(store: TypedOnlyStore(base: base))
        #expect(try await storage.saveRotatedRefreshToken("t-1", replacing: "t-0"))
        #expect(try base.read(OAuthCredential.id)?.refreshToken == "t-1")

        let other = ServiceID<OAuthCredential>(path: "oauth/other")
        try base.saveData(try OAuthCredential.refreshToken("o-0", clientID: "other").encode(), account: other.path)
        let elsewhere = AccessTokenStorage(store: TypedOnlyStore(base: base), id: other)
        #expect(try await elsewhere.credential().refreshToken == "o-0")
        await #expect {
            try await elsewhere.saveRotatedRefreshToken("o-1", replacing: "o-0")
        } throws: { error in
            guard case TokenAuthenticationError.credentialStore(.unsupported) = error else { return false }
            return true
        }
        #expect(try base.read(other)?.refreshToken == "o-0")
    }
}
