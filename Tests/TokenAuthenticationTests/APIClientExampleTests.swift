import CofferTestSupport
import Foundation
@_spi(Testing) import Secrets
import TokenAuthentication
import Testing

@Suite("The API client example, run as a user runs it")
struct APIClientExampleTests {
    @Test("it reads its credential from Coffer's store, signs requests, and gets a fresh token after a 401")
    func example() async throws {
        let directory = try TemporaryDirectory(prefix: "coffer-api-client")
        let store = AggregateSecretsStore(
            backend: try EncryptedFileBackend(
                directory: directory.url, key: .passphrase("example passphrase"),
                options: .weakKeyDerivationForTesting()))
        try store.save(AuthenticatorFixture.clientCredentials)

        let server = TokenServer()
        await server.configure { $0.revokesAfterFirstUse = true }
        try await server.serve { tokenURL, apiURL in
            let outcome = try await ChildProcess.runDetached(
                try ChildProcess.executable(named: "APIClientExample"),
                [tokenURL.absoluteString, apiURL.absoluteString, "hello", "hello"],
                environment: ["COFFER_STORE_DIR": directory.url.path, "COFFER_PASSPHRASE": "example passphrase"])
            #expect(outcome.status == 0, "\(outcome.errorOutput)")
            #expect(outcome.output == "hello 200 hello\nhello 200 hello\n")
            #expect(!outcome.output.contains("access-"))
            #expect(await server.received.count == 2)
        }
    }
}
