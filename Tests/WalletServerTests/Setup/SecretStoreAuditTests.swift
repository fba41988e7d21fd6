import CofferTestSupport
import Foundation
import Secrets
import SecretsAudit
import SecretsMetrics
import Testing
import WalletPasses

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("The server's secret store is audited: each signing-key access is counted and put in the audit file")
struct SecretStoreAuditTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    var auditURL: URL { directory.appending("server-audit.jsonl") }

    func configuration(auditFile: URL?) -> WalletServerConfiguration {
        var configuration = WalletServerConfiguration(
            dataDirectory: directory.appending("data"), createsDevelopmentIdentity: true)
        configuration.secretsAuditFile = auditFile
        return configuration
    }

    @Test("creating and loading a signing identity lands in the file (which verifies) and in the metrics")
    func recordsAndCounts() async throws {
        let metrics = ServerMetrics()
        let storage = try await WalletServerStorage.open(
            configuration: configuration(auditFile: auditURL), metrics: metrics.factory)
        let passType: PassType
        do {
            passType = try await WalletAdministration(storage: storage).developmentPassType().passType
            _ = try await storage.identities.identity(for: passType)
        } catch {
            try await storage.shutdown()
            throw error
        }
        try storage.secrets.audit.flush()
        let exposition = String(decoding: metrics.exposition(), as: UTF8.self)
        try await storage.shutdown()

        let report = try AuditFileVerifier.verify(
            fileAt: auditURL, keys: AuditKeyStore(store: AggregateSecretsStore(backend: try openSecretStore())))
        #expect(report.isIntact, "\(report.findings)")
        let records = try String(contentsOf: auditURL, encoding: .utf8).split(separator: "\n")
            .compactMap { AuditFileRecord.parse(Data($0.utf8))?.record.event }
        #expect(records.contains { $0.operation == .save && $0.account == passType.signingKeyPath })
        #expect(
            records.contains { $0.operation == .read && $0.account == passType.signingKeyPath && $0.outcome == .found })
        #expect(records.allSatisfy { $0.backend == "encrypted-file" })

        let text = try PrometheusText(exposition)
        let reads = text.value(
            MetricsAuditSink.accessesLabel, ["operation": "read", "outcome": "found", "backend": "encrypted-file"])
        #expect((reads ?? 0) >= 1)
        #expect(text.types[MetricsAuditSink.accessesLabel] == "counter")
    }

    @Test("COFFER_AUDIT_FILE names the file, as an absolute path; unset, there is none")
    func fromEnvironment() throws {
        let configured = try WalletServerConfiguration(environment: ["COFFER_AUDIT_FILE": "audit.jsonl"])
        #expect(configured.secretsAuditFile?.path.hasPrefix("/") == true)
        #expect(configured.secretsAuditFile?.lastPathComponent == "audit.jsonl")
        #expect(try WalletServerConfiguration(environment: [:]).secretsAuditFile == nil)
    }

    @Test("an audit file the server may not use stops it at start, with a configuration error")
    func unusableFile() async throws {
        let folder = directory.appending("a-folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        await #expect(throws: WalletServerError.self) {
            try await WalletServerStorage.open(configuration: configuration(auditFile: folder))
        }
    }

    /// The data directory's secret store, opened the way the server opens it.
    func openSecretStore() throws -> EncryptedFileBackend {
        let configuration = configuration(auditFile: nil)
        return try EncryptedFileBackend(
            directory: configuration.secretStoreDirectory, key: .keyFile(configuration.keyFileURL),
            options: .init(createIfMissing: false))
    }
}
