@testable import CredentialStoreExample
import Foundation
import Secrets
import Testing

@Suite("AggregateSecretsStore writes to its primary, reads in order and migrates on read")
struct AggregateSecretsStoreTests {
    let primary = InMemoryBackend()
    let legacy = InMemoryBackend()
    let configuration = SecretsConfiguration(service: "TauIntegrations")
    let secret = GeminiSecret(apiKey: "g-key")

    func store(migrateOnRead: Bool = false, removeAfterMigration: Bool = false) -> AggregateSecretsStore {
        AggregateSecretsStore(
            backends: [primary, legacy], configuration: configuration,
            options: .init(primaryIndex: 0, migrateOnRead: migrateOnRead, removeAfterMigration: removeAfterMigration))
    }

    func query() -> SecretQuery<GeminiSecret> { SecretQuery(id: GeminiSecret.id, configuration: configuration) }

    @Test("saves go to the primary backend only")
    func savesToPrimary() throws {
        try store().save(secret)
        #expect(try primary.read(query()) != nil)
        #expect(try legacy.read(query()) == nil)
    }

    @Test("a value only in a secondary backend is read without migration by default")
    func readsFromSecondary() throws {
        try legacy.save(try secret.encode(), for: query())
        #expect(try store().read(GeminiSecret.id) == secret)
        #expect(try primary.read(query()) == nil)
    }

    @Test("migrateOnRead copies the value into the primary and keeps the old copy")
    func migratesOnRead() throws {
        try legacy.save(try secret.encode(), for: query())
        #expect(try store(migrateOnRead: true).read(GeminiSecret.id) == secret)
        #expect(try primary.read(query()) == (try secret.encode()))
        #expect(try legacy.read(query()) != nil)
    }

    @Test("removeAfterMigration removes the old copy once the primary holds it")
    func movesOnRead() throws {
        try legacy.save(try secret.encode(), for: query())
        #expect(try store(migrateOnRead: true, removeAfterMigration: true).read(GeminiSecret.id) == secret)
        #expect(try legacy.read(query()) == nil)
        #expect(try store().read(GeminiSecret.id) == secret)
    }

    @Test("a failing primary is an error, never a fall-through to an older copy")
    func primaryErrorsPropagate() throws {
        let locked = LockedBackend()
        try legacy.save(try secret.encode(), for: query())
        let store = AggregateSecretsStore(
            backends: [locked, legacy], configuration: configuration, options: .init(migrateOnRead: true))
        #expect(throws: SecretsError.locked("test keyring")) { try store.read(GeminiSecret.id) }
        #expect(throws: SecretsError.locked("test keyring")) { try store.listAccounts() }
        #expect(try legacy.read(query()) != nil)
    }

    @Test("a migration that fails still returns the value and deletes nothing")
    func failedMigrationKeepsValue() throws {
        let readOnly = ReadOnlyBackend()
        try legacy.save(try secret.encode(), for: query())
        let store = AggregateSecretsStore(
            backends: [readOnly, legacy], configuration: configuration,
            options: .init(migrateOnRead: true, removeAfterMigration: true))
        #expect(try store.read(GeminiSecret.id) == secret)
        #expect(try legacy.read(query()) != nil)
    }

    @Test("delete removes the item from every backend, so migration cannot revive it")
    func deletesEverywhere() throws {
        try primary.save(try secret.encode(), for: query())
        try legacy.save(try secret.encode(), for: query())
        try store(migrateOnRead: true).delete(GeminiSecret.id)
        #expect(try store(migrateOnRead: true).read(GeminiSecret.id) == nil)
    }

    @Test("listAccounts is the sorted union of all backends for the configured service")
    func listsUnion() throws {
        try primary.save(Data("1".utf8), for: SecretQuery<Data>(service: "TauIntegrations", account: "b/one"))
        try legacy.save(Data("2".utf8), for: SecretQuery<Data>(service: "TauIntegrations", account: "a/two"))
        try legacy.save(Data("3".utf8), for: SecretQuery<Data>(service: "TauIntegrations", account: "b/one"))
        try legacy.save(Data("4".utf8), for: SecretQuery<Data>(service: "Other", account: "c/three"))
        #expect(try store().listAccounts() == ["a/two", "b/one"])
    }

    @Test("an item of the wrong shape is a typed decoding error naming the path and type")
    func decodingFailure() throws {
        try primary.save(Data("not json".utf8), for: query())
        #expect {
            _ = try store().read(GeminiSecret.id)
        } throws: { error in
            guard case SecretsError.decodingFailed(let account, let type, _) = error else { return false }
            return account == "ai/gemini" && type == "GeminiSecret"
        }
    }

    @Test("a secret type with an invalid ID is rejected before any backend is touched")
    func invalidTypeID() throws {
        #expect(throws: SecretsError.self) { try store().save(BadPathSecret(value: "x")) }
        #expect(try primary.listAccounts(service: "TauIntegrations", accessGroup: nil).isEmpty)
    }
}

private struct BadPathSecret: Codable, SecretCoder {
    static let id = ServiceID<BadPathSecret>(path: "../outside")
    var value: String
}

/// A backend that behaves like a locked keyring.
final class LockedBackend: SecretsBackend {
    func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws { throw SecretsError.locked("test keyring") }
    func read<Value>(_ query: SecretQuery<Value>) throws -> Data? { throw SecretsError.locked("test keyring") }
    func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool { throw SecretsError.locked("test keyring") }
    func listAccounts(service: String, accessGroup: String?) throws -> [String] {
        throw SecretsError.locked("test keyring")
    }
}

/// A backend that reads as empty and refuses writes.
private final class ReadOnlyBackend: SecretsBackend {
    func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws { throw SecretsError.unavailable("read-only") }
    func read<Value>(_ query: SecretQuery<Value>) throws -> Data? { nil }
    func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool { false }
    func listAccounts(service: String, accessGroup: String?) throws -> [String] { [] }
}
