import CofferTestSupport
import Foundation
import Logging
@_spi(Testing) import Secrets
@testable import SecretsAudit
import Testing

@Suite("Every access through an audited store becomes one event: what, where, how it ended, never the value")
struct SecretsAuditTests {
    let directory: TemporaryDirectory
    let sink = CollectingAuditSink()

    init() throws {
        directory = try TemporaryDirectory()
    }

    private static let secretValue = "sk-live-0123456789abcdef-not-for-logs"

    private func auditedStore(_ kind: BackendKind = .encryptedFileAES, caller: String? = nil) throws
        -> AuditedSecretsStore
    {
        let base = AggregateSecretsStore(
            backend: try kind.makeBackend(in: directory), configuration: SecretsConfiguration(service: "app.example"))
        return AuditedSecretsStore(base, audit: SecretsAudit(sinks: [sink], defaultCaller: caller))
    }

    @Test("a save, a read that finds, a read that misses, a listing and two deletes make six events, in order")
    func eachOperation() throws {
        let store = try auditedStore()
        try store.saveData(Data(Self.secretValue.utf8), account: "ai/openai")
        #expect(try store.readData(account: "ai/openai") == Data(Self.secretValue.utf8))
        #expect(try store.readData(account: "ai/other") == nil)
        #expect(try store.listAccounts() == ["ai/openai"])
        #expect(try store.deleteData(account: "ai/openai"))
        #expect(try !store.deleteData(account: "ai/openai"))

        let events = sink.events
        #expect(events.map(\.operation) == [.save, .read, .read, .list, .delete, .delete])
        #expect(events.map(\.outcome) == [.saved, .found, .missing, .found, .found, .missing])
        #expect(events.map(\.account) == ["ai/openai", "ai/openai", "ai/other", nil, "ai/openai", "ai/openai"])
        #expect(events.allSatisfy { $0.service == "app.example" && $0.backend == "encrypted-file" })
        #expect(events.allSatisfy { $0.caller == nil && $0.reason == nil && $0.duration >= .zero })
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test("typed access is audited under the secret's path")
    func typedAccess() throws {
        struct Token: Codable, SecretCoder, Equatable {
            static let id = ServiceID<Token>(path: "api/token")
            var value: String
        }
        let store = try auditedStore(.inMemory)
        try store.save(Token(value: Self.secretValue))
        #expect(try store.read(Token.id) == Token(value: Self.secretValue))
        try store.delete(Token.id)
        #expect(try store.read(Token.id) == nil)
        #expect(sink.events.map(\.operation) == [.save, .read, .delete, .read])
        #expect(sink.events.map(\.outcome) == [.saved, .found, .found, .missing])
        #expect(sink.events.allSatisfy { $0.account == "api/token" && $0.backend == "in-memory" })
    }

    @Test("a failing access is recorded with its outcome and the error's kind, and rethrown unchanged")
    func failingAccess() throws {
        let url = directory.appending("tampered")
        let backend = try EncryptedFileBackend(
            directory: url, key: .passphrase("test passphrase"), options: .weakKeyDerivationForTesting())
        let store = AuditedSecretsStore(AggregateSecretsStore(backend: backend), audit: SecretsAudit(sinks: [sink]))
        try store.saveData(Data(Self.secretValue.utf8), account: "db/password")
        for item in try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent("items").path) {
            let itemURL = url.appendingPathComponent("items").appendingPathComponent(item)
            var bytes = try Data(contentsOf: itemURL)
            bytes[bytes.count - 1] ^= 0x01
            try bytes.write(to: itemURL)
        }

        #expect(throws: SecretsError.self) { try store.readData(account: "db/password") }
        let failed = try #require(sink.events.last)
        #expect(failed.operation == .read && failed.outcome == .failed && failed.reason == "authenticationFailed")
    }

    @Test("an invalid path is refused, recorded as failed, and the error stays typed")
    func invalidPath() throws {
        let store = try auditedStore(.inMemory)
        #expect(throws: SecretsError.self) { try store.readData(account: "../etc/passwd") }
        #expect(sink.events.last?.outcome == .failed)
        #expect(sink.events.last?.reason == "invalidIdentifier")
    }

    @Test(
        "errors map to outcomes: locked to locked, a refused passphrase or key to denied, the rest to failed",
        arguments: [
            (SecretsError.locked("the login keyring"), SecretsAuditEvent.Outcome.locked),
            (.wrongPassphrase(store: "/s"), .denied), (.wrongKey(store: "/s"), .denied),
            (.unavailable("no bus"), .failed), (.corruptData("item"), .failed),
            (.tooLarge(byteCount: 2, limit: 1), .failed),
        ])
    func outcomes(error: SecretsError, outcome: SecretsAuditEvent.Outcome) {
        #expect(SecretsAuditEvent.Outcome(error) == outcome)
    }

    @Test("the caller label follows each task through SecretsStore onto the thread that runs the access")
    func callerLabels() async throws {
        let store = SecretsStore(try auditedStore(.inMemory, caller: "app").base, audit: SecretsAudit(sinks: [sink]))
        try await store.save(Data("v".utf8), account: "shared/item")
        await withTaskGroup(of: Void.self) { group in
            for label in ["refresh", "checkout", "widget"] {
                group.addTask {
                    _ = try? await SecretsAudit.withCaller(label) { try await store.read(account: "shared/item") }
                }
            }
        }
        let reads = sink.events.filter { $0.operation == .read }
        #expect(Set(reads.compactMap(\.caller)) == ["refresh", "checkout", "widget"])
        #expect(sink.events.first?.caller == nil)
    }

    @Test("an audit's default caller labels accesses made outside withCaller")
    func defaultCaller() throws {
        let store = try auditedStore(.inMemory, caller: "cli")
        _ = try store.readData(account: "a/b")
        SecretsAudit.withCaller("inner") { _ = try? store.readData(account: "a/b") }
        #expect(sink.events.map(\.caller) == ["cli", "inner"])
    }

    @Test("64 tasks hammering an audited SecretsStore produce exactly one event per access")
    func oneEventPerAccess() async throws {
        let store = SecretsStore(
            AggregateSecretsStore(backend: try BackendKind.encryptedFileAES.makeBackend(in: directory)),
            audit: SecretsAudit(sinks: [sink]))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<64 {
                group.addTask {
                    try await store.save(Data("\(task)".utf8), account: "own/\(task)")
                    _ = try await store.read(account: "own/\(task)")
                    _ = try await store.read(account: "shared/missing")
                    try await store.delete(account: "own/\(task)")
                }
            }
            try await group.waitForAll()
        }
        let events = sink.events
        #expect(events.count == 64 * 4)
        #expect(events.filter { $0.operation == .save && $0.outcome == .saved }.count == 64)
        #expect(events.filter { $0.operation == .read && $0.outcome == .found }.count == 64)
        #expect(events.filter { $0.operation == .read && $0.outcome == .missing }.count == 64)
        #expect(events.filter { $0.operation == .delete && $0.outcome == .found }.count == 64)
    }

    @Test("whole-store operations are recorded with no account")
    func wholeStoreOperations() throws {
        let store = try auditedStore(.inMemory)
        let moved = try store.recording(.migrate) { 3 }
        #expect(moved == 3)
        #expect(throws: SecretsError.locked("the keyring")) {
            try store.recording(.rotate) { throw SecretsError.locked("the keyring") }
        }
        #expect(sink.events.map(\.operation) == [.migrate, .rotate])
        #expect(sink.events.map(\.outcome) == [.found, .locked])
        #expect(sink.events.allSatisfy { $0.account == nil })
    }

    @Test("no event, description or log line holds the value")
    func noValues() throws {
        let lines = Recorder()
        let logger = Logger(label: "audit") { _ in RecordingLogHandler(recorder: lines, logLevel: .trace) }
        let store = AuditedSecretsStore(
            AggregateSecretsStore(backend: InMemoryBackend()),
            audit: SecretsAudit(sinks: [sink, LoggingAuditSink(logger: logger)]))
        try store.saveData(Data(Self.secretValue.utf8), account: "ai/openai")
        _ = try store.readData(account: "ai/openai")
        try store.audit.flush()
        let texts = sink.events.map { "\($0) \(String(reflecting: $0))" } + lines.values
        #expect(lines.values.count == 2)
        #expect(texts.allSatisfy { !$0.contains(Self.secretValue) })
    }

    @Test("the log sink logs successful reads at debug and writes, deletions and failures at notice")
    func loggingSinkLevels() throws {
        let lines = Recorder()
        let logger = Logger(label: "audit") { _ in RecordingLogHandler(recorder: lines, logLevel: .info) }
        let sink = LoggingAuditSink(logger: logger)
        let store = AuditedSecretsStore(
            AggregateSecretsStore(backend: InMemoryBackend()), audit: SecretsAudit(sinks: [sink], defaultCaller: "cli"))
        try store.saveData(Data("v".utf8), account: "ai/openai")
        _ = try store.readData(account: "ai/openai")
        _ = try store.readData(account: "ai/missing")
        _ = try store.listAccounts()
        _ = try? store.readData(account: "../x")
        try store.deleteData(account: "ai/openai")
        #expect(lines.values.count == 3)
        #expect(lines.values[0].hasPrefix("secret save") && lines.values[0].contains("cli"))
        #expect(lines.values[1].hasPrefix("secret read") && lines.values[1].contains("invalidIdentifier"))
        #expect(lines.values[2].hasPrefix("secret delete"))
        let read = SecretsAuditEvent(
            time: Date(), operation: .read, service: "s", account: "a", backend: "b", outcome: .found,
            duration: .zero, caller: nil)
        #expect(sink.level(of: read) == .debug)
    }

    @Test(
        "every file sink's work runs on one background thread, however many sinks and audits there are",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task"), "threads are counted in /proc"))
    func oneWorkerThread() throws {
        let keys = AggregateSecretsStore(backend: try BackendKind.encryptedFileAES.makeBackend(in: directory))
        let fileSinks = try (0..<8).map { number in
            try AuditFileSink(url: directory.appending("audit-\(number).jsonl"), keyStore: keys)
        }
        let audits = fileSinks.map { SecretsAudit(sinks: [$0]) }
        for audit in audits {
            _ = try AuditedSecretsStore(AggregateSecretsStore(backend: InMemoryBackend()), audit: audit)
                .readData(account: "ai/openai")
        }
        for audit in audits { try audit.flush() }
        // Other tests' threads come and go while the directory is read: one that ended has no name to count.
        let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(names.filter { $0 == "coffer-audit" }.count == 1)
        for sink in fileSinks { try sink.close() }
    }

    @Test(
        "a log handler that reads an audited store is recorded, and never waits for itself",
        .timeLimit(.minutes(1)))
    func logHandlerReadingAnAuditedStore() throws {
        let tokenAuditURL = directory.appending("token-audit.jsonl")
        let keys = AggregateSecretsStore(backend: try BackendKind.encryptedFileAES.makeBackend(in: directory))
        let tokenAudit = try AuditFileSink(url: tokenAuditURL, keyStore: keys, durability: .synchronous)
        let tokens = AuditedSecretsStore(
            AggregateSecretsStore(backend: InMemoryBackend()), audit: SecretsAudit(sinks: [tokenAudit]))
        let lines = Recorder()
        let logger = Logger(label: "audit") { _ in
            // Runs inside the access it logs, and records into a synchronous sink.
            RecordingLogHandler(recorder: lines, logLevel: .debug) { _ = try? tokens.readData(account: "logs/token") }
        }
        let store = AuditedSecretsStore(
            AggregateSecretsStore(backend: InMemoryBackend()),
            audit: SecretsAudit(sinks: [LoggingAuditSink(logger: logger)]))
        for _ in 1...20 { _ = try store.readData(account: "ai/openai") }
        try store.audit.flush()
        try tokenAudit.close()
        #expect(lines.values.count == 20)
        let report = try AuditFileVerifier.verify(fileAt: tokenAuditURL, keys: AuditKeyStore(store: keys))
        #expect(report.isIntact && report.recordCount == 20)
    }

    @Test("backend names are the types' names in kebab case, joined for a store over several")
    func backendNames() throws {
        #expect(InMemoryBackend().backendName == "in-memory")
        #expect(try BackendKind.file.makeBackend(in: directory).backendName == "file")
        let store = AuditedSecretsStore(
            AggregateSecretsStore(backends: [
                InMemoryBackend(), try BackendKind.encryptedFileAES.makeBackend(in: directory),
            ]),
            audit: SecretsAudit(sinks: []))
        #expect(store.backend == "in-memory+encrypted-file")
    }
}
