import CofferTestSupport
import Foundation
import Secrets
import SecretsAudit
import Testing
import WalletServer
import WalletServices
import WalletStore

@Suite("Server storage: the data directory, its key file, and the secret store it unlocks")
struct ServerStorageTests {
    func configuration(_ directory: TemporaryDirectory, key: WalletServerConfiguration.SecretStoreKey = .automatic)
        -> WalletServerConfiguration
    {
        WalletServerConfiguration(
            dataDirectory: directory.appending("data"), secretStoreKey: key, createsDevelopmentIdentity: false)
    }

    func permissions(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("the first open makes a 0700 data directory and a 0600 key file; the next open uses that key")
    func firstOpen() async throws {
        let directory = try TemporaryDirectory()
        let configuration = configuration(directory)
        let storage = try await WalletServerStorage.open(configuration: configuration)
        try storage.secrets.saveData(Data("kept".utf8), account: "wallet/check")
        try await storage.shutdown()
        #expect(try permissions(configuration.dataDirectory) == 0o700)
        #expect(try permissions(configuration.keyFileURL) == 0o600)
        #expect(try Data(contentsOf: configuration.keyFileURL).count == 32)

        let reopened = try await WalletServerStorage.open(configuration: configuration)
        #expect(try reopened.secrets.readData(account: "wallet/check") == Data("kept".utf8))
        try await reopened.shutdown()
    }

    @Test("a store whose key file is gone is not replaced: opening fails and names what is missing")
    func missingKeyFile() async throws {
        let directory = try TemporaryDirectory()
        let configuration = configuration(directory)
        try await WalletServerStorage.open(configuration: configuration).shutdown()
        try FileManager.default.removeItem(at: configuration.keyFileURL)
        await #expect(
            throws: WalletServerError.secretStoreKeyMissing(directory: configuration.secretStoreDirectory.path)
        ) {
            try await WalletServerStorage.open(configuration: configuration)
        }
        #expect(FileManager.default.fileExists(atPath: configuration.secretStoreDirectory.path))
    }

    @Test("a passphrase store opens with its passphrase, refuses another, and makes no key file")
    func passphrase() async throws {
        let directory = try TemporaryDirectory()
        let right = configuration(directory, key: .passphrase(Passphrase("right one")))
        try await WalletServerStorage.open(configuration: right).shutdown()
        #expect(!FileManager.default.fileExists(atPath: right.keyFileURL.path))
        try await WalletServerStorage.open(configuration: right).shutdown()

        await #expect(throws: SecretsError.self) {
            try await WalletServerStorage.open(configuration: configuration(directory, key: .passphrase("wrong one")))
        }
        await #expect(throws: WalletServerError.self) {
            try await WalletServerStorage.open(configuration: configuration(directory))
        }
    }

    @Test("an unusable database URL is refused before anything is opened")
    func badDatabaseURL() async throws {
        let directory = try TemporaryDirectory()
        var configuration = configuration(directory)
        configuration.databaseURL = "mysql://nope"
        await #expect(throws: WalletServerError.self) {
            try await WalletServerStorage.open(configuration: configuration)
        }
    }
}
