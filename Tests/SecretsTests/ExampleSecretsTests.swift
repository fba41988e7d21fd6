@testable import CredentialStoreExample
import Foundation
import Secrets
import Testing

@Suite("The example secret types round-trip through a store")
struct ExampleSecretsTests {
    let store = AggregateSecretsStore(
        backend: InMemoryBackend(), configuration: SecretsConfiguration(service: "TauIntegrations"))

    @Test("each type saves and reads back under its namespaced path")
    func roundTrips() throws {
        let schwab = SchwabCredentialsSecret(clientID: "id", clientSecret: "secret", updatedAt: Date())
        try store.save(OpenAISecret(apiKey: "sk", organization: "org"))
        try store.save(GeminiSecret(apiKey: "g"))
        try store.save(NotionSecret(token: "secret_x", databaseID: "db"))
        try store.save(schwab)
        try store.save(TradierSecureEnvelope(accessToken: "t", accountNumbers: ["6YA0"], sandbox: true))
        #expect(try store.read(SchwabCredentialsSecret.id) == schwab)
        #expect(try store.read(NotionSecret.id)?.databaseID == "db")
        #expect(
            try store.listAccounts() == [
                "ai/gemini", "ai/openai", "brokers/schwab/credentials", "brokers/tradier/envelope", "database/notion",
            ])
        try store.delete(NotionSecret.id)
        #expect(try store.read(NotionSecret.id) == nil)
    }

    @Test("Codable secrets encode as JSON with sorted keys, so equal values give equal bytes")
    func encodingIsDeterministic() throws {
        let secret = NotionSecret(token: "t", databaseID: "d")
        let bytes = try secret.encode()
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"databaseID":"d","token":"t"}"#)
        #expect(try NotionSecret(decode: bytes) == secret)
        #expect(try secret.encode() == bytes)
    }
}
