import CofferTestSupport
import Foundation
import Logging
@_spi(Testing) import Secrets
import Testing

@Suite("Whoever can write the store's directory can neither hang Coffer nor stop a rotation, and is noticed")
struct HostileStoreDirectoryTests {
    let directory: TemporaryDirectory
    var storeURL: URL { directory.appending("store") }
    var itemsURL: URL { storeURL.appendingPathComponent("items") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    func open(logger: Logger = Logger(label: "test")) throws -> EncryptedFileBackend {
        try EncryptedFileBackend(
            directory: storeURL, key: .passphrase("passphrase"), options: .weakKeyDerivationForTesting(),
            logger: logger)
    }

    func query(_ account: String) -> SecretQuery<Data> { SecretQuery(service: "svc", account: account) }

    /// The item file that `account`'s save created.
    func save(_ account: String, in backend: EncryptedFileBackend) throws -> URL {
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: itemsURL.path))
        try backend.save(Data("value of \(account)".utf8), for: query(account))
        let created = Set(try FileManager.default.contentsOfDirectory(atPath: itemsURL.path)).subtracting(before)
        return itemsURL.appendingPathComponent(try #require(created.first))
    }

    /// Replaces `url` with a FIFO, which a plain `open` would wait on for ever.
    func replaceWithFIFO(_ url: URL) throws {
        try? FileManager.default.removeItem(at: url)
        #expect(mkfifo(url.path, 0o600) == 0)
    }

    /// Runs `body` on its own thread and fails the test, instead of hanging the run, when it does not return.
    func withinSeconds(_ seconds: Double, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        if done.wait(timeout: .now() + seconds) == .timedOut { Issue.record("still blocked after \(seconds) s") }
    }

    @Test("a FIFO in place of an item, the header or the lock file is an error at once, not a hang")
    func fifos() throws {
        let backend = try open()
        let item = try save("a", in: backend)
        try replaceWithFIFO(item)
        let store = storeURL
        withinSeconds(20) {
            #expect(throws: SecretsError.self) { try backend.read(self.query("a")) }
            #expect((try? backend.damagedItems().count) == 1)
        }
        try replaceWithFIFO(store.appendingPathComponent("store.json"))
        withinSeconds(20) {
            #expect(throws: SecretsError.self) { try self.open() }
        }
        try FileManager.default.removeItem(at: store)
        _ = try open()
        try replaceWithFIFO(store.appendingPathComponent(".lock"))
        withinSeconds(20) {
            #expect(throws: SecretsError.self) { try self.open() }
        }
    }

    @Test("damaged and junk item files are moved to quarantine by a rotation, which completes and reports them")
    func quarantine() throws {
        let backend = try open()
        let good = try save("good", in: backend)
        let tampered = try save("tampered", in: backend)
        var bytes = try Data(contentsOf: tampered)
        bytes[bytes.count - 1] ^= 1
        try bytes.write(to: tampered)
        let junk = itemsURL.appendingPathComponent(String(repeating: "0", count: 64) + ".item")
        try Data("CFEI\u{2}junk that claims to be an item".utf8).write(to: junk)
        let moved = itemsURL.appendingPathComponent(String(repeating: "ab", count: 32) + ".item")
        try FileManager.default.copyItem(at: good, to: moved)

        let result = try backend.rotateKey()

        #expect(result.resealed == 1)
        #expect(Set(result.quarantined.map(\.fileName)) == [tampered, junk, moved].map(\.lastPathComponent).asSet)
        for item in result.quarantined {
            #expect(item.location.hasPrefix("quarantine/"))
            #expect(FileManager.default.fileExists(atPath: storeURL.appendingPathComponent(item.location).path))
        }
        #expect(try backend.isRotationIncomplete == false)
        #expect(try backend.damagedItems().isEmpty)
        #expect(try open().read(query("good")) == Data("value of good".utf8))
        #expect(try open().read(query("tampered")) == nil)
    }

    @Test("a store directory the group or others can enter is warned about on open, and preflight reports it")
    func openDirectory() throws {
        _ = try open()
        #expect(try open().integrityFindings().allSatisfy { $0.kind != .storeAccess })
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: storeURL.path)
        let warnings = Recorder()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(recorder: warnings) }

        let backend = try open(logger: logger)

        #expect(warnings.values.contains { $0.contains(storeURL.path) && $0.contains("755") })
        let findings = backend.integrityFindings().filter { $0.kind == .storeAccess }
        #expect(findings.count == 1 && findings[0].level == .warn)
    }
}

extension Array where Element: Hashable {
    fileprivate var asSet: Set<Element> { Set(self) }
}
