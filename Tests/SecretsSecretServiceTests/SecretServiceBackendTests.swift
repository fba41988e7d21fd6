import CofferTestSupport
import Foundation
@_spi(Testing) import Secrets
import SecretsSecretService
import SecretsTesting
import Testing

@Suite(
    "The Secret Service backend on a real gnome-keyring: conformance and interoperability",
    .enabled(if: SecretServiceEnvironment.isEnabled, "needs a Secret Service (COFFER_TEST_SECRET_SERVICE=1)"))
struct SecretServiceBackendTests {
    let backend = SecretServiceBackend()

    @Test("the keyring is reachable and unlocked")
    func reachable() {
        #expect(SecretServiceBackend.isReachable())
    }

    @Test(arguments: SecretsBackendConformance.Check.allCases)
    func conforms(_ check: SecretsBackendConformance.Check) async throws {
        try await SecretsBackendConformance { SecretServiceBackend() }.run(check)
    }

    @Test("an item Coffer saves is what `secret-tool lookup service S account A` prints, byte for byte")
    func readBySecretTool() throws {
        let service = SecretServiceEnvironment.uniqueService()
        let value = Data([0x00, 0xFF, 0x41, 0x0A, 0xC3])
        try backend.save(value, for: SecretQuery<Data>(service: service, account: "api/token"))
        let lookup = try SecretServiceEnvironment.secretTool("lookup", "service", service, "account", "api/token")
        #expect(lookup.status == 0, "\(lookup.errorOutput)")
        #expect(lookup.standardOutput == value)
        try backend.delete(SecretQuery<Data>(service: service, account: "api/token"))
    }

    @Test("an item `secret-tool store` saves is read by Coffer, listed, and replaced by a save")
    func writtenBySecretTool() throws {
        let service = SecretServiceEnvironment.uniqueService()
        let store = try SecretServiceEnvironment.secretTool(
            "store", "--label=from secret-tool", "service", service, "account", "db/password",
            input: Data("hunter2".utf8))
        #expect(store.status == 0, "\(store.errorOutput)")
        let query = SecretQuery<Data>(service: service, account: "db/password")
        #expect(try backend.read(query) == Data("hunter2".utf8))
        #expect(try backend.listAccounts(service: service, accessGroup: nil) == ["db/password"])
        try backend.save(Data("rotated".utf8), for: query)
        #expect(try backend.read(query) == Data("rotated".utf8), "the save replaced secret-tool's item, not added one")
        let lookup = try SecretServiceEnvironment.secretTool("lookup", "service", service, "account", "db/password")
        #expect(lookup.standardOutput == Data("rotated".utf8))
        #expect(try backend.delete(query))
        #expect(
            try SecretServiceEnvironment.secretTool("lookup", "service", service, "account", "db/password").status != 0)
    }

    @Test("Python keyring's items (service + username) are read with the pythonKeyring attributes")
    func pythonKeyring() throws {
        let service = SecretServiceEnvironment.uniqueService()
        let store = try SecretServiceEnvironment.secretTool(
            "store", "--label=Password for alice on \(service)", "application", "Python keyring library",
            "service", service, "username", "alice", input: Data("s3cret".utf8))
        #expect(store.status == 0, "\(store.errorOutput)")
        let keyring = SecretServiceBackend(options: .init(attributes: .pythonKeyring))
        let query = SecretQuery<Data>(service: service, account: "alice")
        #expect(try keyring.read(query) == Data("s3cret".utf8))
        #expect(try backend.read(query) == nil, "Coffer's own attributes do not see a username item")
        #expect(try keyring.delete(query))
    }

    @Test("two items answering one query are an ambiguous match, not a guess")
    func ambiguous() throws {
        let service = SecretServiceEnvironment.uniqueService()
        for origin in ["one", "two"] {
            let store = try SecretServiceEnvironment.secretTool(
                "store", "--label=\(origin)", "service", service, "account", "shared", "origin", origin,
                input: Data(origin.utf8))
            #expect(store.status == 0, "\(store.errorOutput)")
        }
        #expect(throws: SecretsError.self) { try backend.read(SecretQuery<Data>(service: service, account: "shared")) }
        do {
            _ = try backend.read(SecretQuery<Data>(service: service, account: "shared"))
        } catch let error as SecretsError {
            guard case .ambiguousMatch = error else { Issue.record("\(error)"); return }
        }
        #expect(try backend.delete(SecretQuery<Data>(service: service, account: "shared")))
        #expect(try backend.read(SecretQuery<Data>(service: service, account: "shared")) == nil)
    }

    @Test("an aggregate store with the keyring first moves items out of the encrypted file store as it reads")
    func migrateOnRead() throws {
        let directory = try TemporaryDirectory()
        let file = try EncryptedFileBackend(
            directory: directory.appending("store"), key: .passphrase("test passphrase"),
            options: .weakKeyDerivationForTesting())
        var configuration = SecretsConfiguration()
        configuration.service = SecretServiceEnvironment.uniqueService()
        let legacy = AggregateSecretsStore(backend: file, configuration: configuration)
        try legacy.saveData(Data("old-token".utf8), account: "ai/openai")
        try legacy.saveData(Data([0, 1, 2]), account: "keys/binary")

        let store = AggregateSecretsStore(
            backends: [backend, file], configuration: configuration,
            options: .init(primaryIndex: 0, migrateOnRead: true, removeAfterMigration: true))
        #expect(try store.listAccounts() == ["ai/openai", "keys/binary"])
        #expect(try store.readData(account: "ai/openai") == Data("old-token".utf8))
        let query = SecretQuery<Data>(service: configuration.service, account: "ai/openai")
        #expect(try backend.read(query) == Data("old-token".utf8), "now in the keyring")
        #expect(try file.read(query) == nil, "and gone from the file store")
        #expect(try file.listAccounts(service: configuration.service, accessGroup: nil) == ["keys/binary"])
        #expect(try store.readData(account: "keys/binary") == Data([0, 1, 2]))
        #expect(try file.listAccounts(service: configuration.service, accessGroup: nil).isEmpty)
        for account in ["ai/openai", "keys/binary"] { try store.deleteData(account: account) }
    }

    @Test("an encrypted file store can keep its key in the keyring instead of behind a passphrase")
    func fileStoreKeyInKeyring() throws {
        let directory = try TemporaryDirectory()
        let keyQuery = SecretQuery<Data>(service: SecretServiceEnvironment.uniqueService(), account: "file-store/key")
        let store = try EncryptedFileBackend(
            directory: directory.appending("store"), key: try .stored(in: backend, at: keyQuery, createIfMissing: true))
        let item = SecretQuery<Data>(service: "app", account: "token")
        try store.save(Data("t0k3n".utf8), for: item)
        let lookup = try SecretServiceEnvironment.secretTool(
            "lookup", "service", keyQuery.service, "account", "file-store/key")
        #expect(lookup.standardOutput.count == 32)
        let reopened = try EncryptedFileBackend(
            directory: directory.appending("store"), key: try .stored(in: backend, at: keyQuery, createIfMissing: false)
        )
        #expect(try reopened.read(item) == Data("t0k3n".utf8))
        try backend.delete(keyQuery)
    }

    @Test("a value over the limit is refused before anything is written")
    func tooLarge() throws {
        let small = SecretServiceBackend(options: .init(maximumValueSize: 16))
        let query = SecretQuery<Data>(service: SecretServiceEnvironment.uniqueService(), account: "big")
        #expect(throws: SecretsError.tooLarge(byteCount: 17, limit: 16)) { try small.save(Data(count: 17), for: query) }
        #expect(try small.read(query) == nil)
    }
}
