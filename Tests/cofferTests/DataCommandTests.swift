import CofferTestSupport
import Foundation
import LocalData
import Secrets
import Testing

@Suite("coffer data: audit, migrate and rotate, against stores LocalData wrote")
struct DataCommandTests {
    static let service = "dev.coffer.data-cli"
    static let source = KeyMaterialSource("user")
    static let policy = SecurityPolicy.encrypted(algorithm: .aes256GCM, keyDerivation: .pbkdf2(iterations: 100_000))

    let directory: TemporaryDirectory
    var appDirectory: URL { directory.appending("app") }
    var plainStore: URL { FileValueStore.plainStoreDirectory(in: appDirectory) }
    var encryptedStore: URL {
        FileValueStore.encryptedStoreDirectory(
            in: appDirectory, algorithm: .aes256GCM, keyDerivation: .pbkdf2(iterations: 1), source: Self.source)
    }

    init() throws {
        directory = try TemporaryDirectory(prefix: "coffer-data-cli")
    }

    func router(passphrase: Passphrase = "data passphrase") -> StorageRouter {
        StorageRouter(
            configuration: StorageConfiguration(
                applicationIdentifier: Self.service,
                keychainBackend: { throw SecretsError.unavailable("not in these tests") },
                keyMaterialProviders: [Self.source: FixedKeyMaterialProvider(.passphrase(passphrase))],
                syncTransport: nil, unregisteredKeyPolicy: .ignore))
    }

    func plainKey(_ name: String) -> StorageKeys.Key<String> {
        StorageKeys.Key(
            name, domain: .fileSystem(directory: .custom(appDirectory)), owner: "Tests", description: "A value.")
    }

    func encryptedKey(_ name: String) -> StorageKeys.Key<String> {
        StorageKeys.Key(
            name, domain: .encryptedFileSystem(directory: .custom(appDirectory)), security: Self.policy,
            keyMaterialSource: Self.source, owner: "Tests", description: "A value.")
    }

    @discardableResult
    func coffer(_ arguments: String..., environment: [String: String] = [:]) throws -> ChildProcess.Outcome {
        try CofferCLI.run(arguments, environment: environment)
    }

    @Test("migrate moves plain values into an encrypted store that LocalData then reads; rotate re-keys it")
    func migrateAndRotate() async throws {
        let names = (0..<150).map { "notes/\($0)" }
        for name in names { try await router().set("text of \(name)", for: plainKey(name)) }

        let moved = try coffer(
            "data", "migrate", "--service", Self.service, "--from", plainStore.path, "--to", encryptedStore.path,
            "--iterations", "100000", environment: ["COFFER_PASSPHRASE": "data passphrase"])
        #expect(moved.status == 0, "\(moved.errorOutput)")
        #expect(moved.output == "moved 150, already there 0, conflicts 0\n")
        #expect(moved.errorOutput.contains("150/150"))

        let reader = router()
        for name in names {
            #expect(try await reader.get(encryptedKey(name)) == "text of \(name)")
            #expect(try await reader.get(plainKey(name)) == nil)
        }

        let rotated = try coffer(
            "data", "rotate", encryptedStore.path, "--cipher", "chacha20-poly1305",
            environment: ["COFFER_PASSPHRASE": "data passphrase"])
        #expect(rotated.output == "re-encrypted 150 values under a new data key\n", "\(rotated.errorOutput)")
        #expect(try await router().get(encryptedKey("notes/7")) == "text of notes/7")

        let wrong = try coffer("data", "rotate", encryptedStore.path, environment: ["COFFER_PASSPHRASE": "nope"])
        #expect(wrong.status == 3)
        #expect(!wrong.errorOutput.contains("nope"))
    }

    @Test("migrate refuses directories that are not LocalData stores, and reports a missing source")
    func badStores() throws {
        for bad in [
            directory.url.path, directory.appending("LocalData/encrypted/rot13-hkdf-x").path,
            directory.appending("LocalData/encrypted/aes-256-gcm-hkdf-..").path,
        ] {
            let outcome = try coffer(
                "data", "migrate", "--service", Self.service, "--from", bad, "--to", encryptedStore.path)
            #expect(outcome.status == 2, "\(bad)")
            #expect(outcome.errorOutput.contains("is not a LocalData store"))
        }
        let missing = try coffer(
            "data", "migrate", "--service", Self.service, "--from", plainStore.path, "--to", encryptedStore.path,
            environment: ["COFFER_PASSPHRASE": "p"])
        #expect(missing.status == 1)
        #expect(try coffer("data", "rotate", plainStore.path).status == 2)
    }

    @Test("audit prints a catalog in text, JSON and Markdown; problems go to standard error with exit 1")
    func audit() throws {
        let report = StorageCatalogReport([plainKey("notes/a").descriptor, encryptedKey("notes/b").descriptor])
        let file = directory.appending("catalog.json")
        try Data(report.rendered(as: .json).utf8).write(to: file)
        let text = try coffer("data", "catalog", "--catalog", file.path)
        #expect(text.status == 0)
        #expect(text.output == report.rendered(as: .text))
        #expect(
            try coffer("data", "catalog", "--catalog", file.path, "--format", "markdown").output
                == report.rendered(as: .markdown))
        #expect(try coffer("data", "audit", "--catalog", file.path).output == text.output)
        let json = try coffer("data", "catalog", "--catalog", file.path, "--format", "json")
        #expect(try DescriptorCatalog(json: json.standardOutput).keys == report.keys)

        let modules = directory.appending("modules")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        try Data(report.rendered(as: .json).utf8).write(to: modules.appending(path: "a.json"))
        try JSONEncoder().encode([plainKey("notes/a").descriptor]).write(to: modules.appending(path: "b.json"))
        let duplicated = try coffer("data", "catalog", "--catalog", modules.path)
        #expect(duplicated.status == 1)
        #expect(duplicated.errorOutput.contains("more than one key is named 'notes/a'"))

        try Data("{ not json".utf8).write(to: file)
        let malformed = try coffer("data", "catalog", "--catalog", file.path)
        #expect(malformed.status == 2)
        #expect(malformed.errorOutput.contains("catalog.json"))
        #expect(try coffer("data", "catalog", "--catalog", directory.appending("absent.json").path).status == 2)
    }
}
