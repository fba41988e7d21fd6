import CofferTestSupport
import Foundation
import Logging
import Secrets
import Testing
import WalletServer
import WalletServices
import WalletStore

/// The server's data on disk: for its owner only, and a warning where its key lies beside it.
@Suite("The data directory: owner-only permissions and the key file's warning")
struct DataProtectionTests {
    /// Opens storage in `directory` with `key`, returning the log lines.
    func open(
        _ directory: TemporaryDirectory, key: WalletServerConfiguration.SecretStoreKey = .automatic,
        developmentIdentity: Bool = true
    ) async throws -> [String] {
        let lines = Recorder()
        let logger = Logger(label: "test") { label in
            JSONLogHandler(label: label) { lines.append(String(decoding: $0, as: UTF8.self)) }
        }
        let configuration = WalletServerConfiguration(
            dataDirectory: directory.appending("data"), secretStoreKey: key,
            createsDevelopmentIdentity: developmentIdentity)
        let storage = try await WalletServerStorage.open(configuration: configuration, logger: logger)
        try await storage.shutdown()
        return lines.values
    }

    func mode(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("an existing world-readable data directory and SQLite file are made owner-only, and that is logged")
    func permissions() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.appending("data")
        try FileManager.default.createDirectory(
            at: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let lines = try await open(directory)
        #expect(try mode(data) == 0o700)
        #expect(try mode(data.appendingPathComponent("coffer-wallet.sqlite")) == 0o600)
        #expect(lines.contains { $0.contains("restricted the permissions") && $0.contains("\"from\":\"755\"") })
        let again = try await open(directory)
        #expect(!again.contains { $0.contains("restricted the permissions") }, "nothing to change the second time")
    }

    @Test("the automatic key file in production (no development identity) is warned about; a passphrase is not")
    func keyFileWarning() async throws {
        let production = try await open(try TemporaryDirectory(), developmentIdentity: false)
        #expect(production.contains { $0.contains("unlocked by the key file beside it") })
        let development = try await open(try TemporaryDirectory())
        #expect(!development.contains { $0.contains("unlocked by the key file beside it") })
        let passphrase = try await open(
            try TemporaryDirectory(), key: .passphrase(.init("a passphrase for the test")), developmentIdentity: false)
        #expect(!passphrase.contains { $0.contains("unlocked by the key file beside it") })
    }
}
