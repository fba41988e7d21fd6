@testable import CredentialStoreExample
import CofferTestSupport
import Foundation
@_spi(Testing) import Secrets
import Testing

@Suite("SecretsPreflight finds missing, undecodable and empty secrets")
struct PreflightTests {
    let store = AggregateSecretsStore(backend: InMemoryBackend())

    func findings(_ requirements: [PreflightRequirement] = []) -> [PreflightFinding] {
        SecretsPreflight.run(on: store, expecting: requirements)
    }

    @Test("a healthy store reports only information")
    func healthy() throws {
        try store.save(NotionSecret(token: "secret_abc", databaseID: "db"))
        let result = findings([.required(NotionSecret.self)])
        #expect(result.allSatisfy { $0.level == .info })
        #expect(result.contains { $0.kind == .summary })
    }

    @Test("a missing required secret is an error; a missing optional one is information")
    func missing() {
        let result = findings([.required(NotionSecret.self), .optional(GeminiSecret.self)])
        #expect(result.contains { $0.level == .error && $0.kind == .missing && $0.account == "database/notion" })
        #expect(result.contains { $0.level == .info && $0.kind == .missing && $0.account == "ai/gemini" })
    }

    @Test("an empty token field is an error; other empty fields are warnings")
    func emptyToken() throws {
        try store.save(NotionSecret(token: "", databaseID: " "))
        let result = findings([.required(NotionSecret.self)])
        #expect(result.contains { $0.kind == .emptyToken && $0.level == .error && $0.message.contains("token") })
        #expect(result.contains { $0.kind == .emptyField && $0.level == .warn && $0.message.contains("databaseID") })
    }

    @Test("empty envelopes and empty values are errors, also for items of unknown type")
    func emptyEnvelopes() throws {
        try store.saveData(Data("{}".utf8), account: "brokers/tradier/raw")
        try store.saveData(Data(), account: "ai/empty")
        try store.saveData(Data(#"{"tokens":[]}"#.utf8), account: "brokers/list")
        let result = findings()
        #expect(
            result.contains { $0.kind == .emptyEnvelope && $0.level == .error && $0.account == "brokers/tradier/raw" })
        #expect(result.contains { $0.kind == .emptyValue && $0.level == .error && $0.account == "ai/empty" })
        #expect(result.contains { $0.kind == .emptyEnvelope && $0.level == .warn && $0.account == "brokers/list" })
    }

    @Test("an item that does not decode as its type is an error")
    func undecodable() throws {
        try store.saveData(Data(#"{"token": 5}"#.utf8), account: "database/notion")
        let result = findings([.required(NotionSecret.self)])
        #expect(result.contains { $0.kind == .undecodable && $0.level == .error && $0.account == "database/notion" })
    }

    @Test("checks a type declares for itself are reported")
    func declaredChecks() throws {
        try store.save(TradierSecureEnvelope(accessToken: "t", accountNumbers: [], sandbox: false))
        let stale = Date().addingTimeInterval(-10 * 86_400)
        try store.save(SchwabCredentialsSecret(clientID: "c", clientSecret: "s", updatedAt: stale))
        let result = findings([.required(TradierSecureEnvelope.self), .required(SchwabCredentialsSecret.self)])
        #expect(
            result.contains { $0.kind == .declared && $0.level == .error && $0.account == "brokers/tradier/envelope" })
        #expect(result.contains { $0.kind == .declared && $0.level == .warn && $0.message.contains("10 days") })
    }

    @Test("an empty store warns; a locked store is an error, not an empty store")
    func emptyAndLocked() {
        #expect(findings().contains { $0.kind == .storeEmpty && $0.level == .warn })
        let locked = SecretsPreflight.run(on: AggregateSecretsStore(backend: LockedBackend()))
        #expect(locked.first?.kind == .storeUnreadable)
        #expect(!locked.contains { $0.kind == .storeEmpty })
    }

    @Test("findings are ordered most serious first and never contain values")
    func orderingAndRedaction() throws {
        try store.save(NotionSecret(token: "secret_SHOULD_NOT_APPEAR", databaseID: ""))
        let result = findings([.required(NotionSecret.self), .required(OpenAISecret.self)])
        #expect(result.map(\.level) == result.map(\.level).sorted(by: >))
        #expect(!result.map(\.description).joined().contains("SHOULD_NOT_APPEAR"))
    }

    @Test("a tampered item of an encrypted store is reported as damaged")
    func damagedItems() throws {
        let directory = try TemporaryDirectory()
        let backend = try EncryptedFileBackend(
            directory: directory.url, key: .passphrase("p"), options: .weakKeyDerivationForTesting())
        let store = AggregateSecretsStore(backend: backend)
        try store.saveData(Data("value".utf8), account: "a/b")
        let items = directory.appending("items")
        let name = try FileManager.default.contentsOfDirectory(atPath: items.path)[0]
        try Data("garbage".utf8).write(to: items.appendingPathComponent(name))
        let result = SecretsPreflight.run(on: store)
        #expect(result.contains { $0.kind == .damagedItem && $0.level == .error })
    }
}
