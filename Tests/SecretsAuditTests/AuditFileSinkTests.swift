import CofferTestSupport
import Crypto
import Foundation
import Logging
@_spi(Testing) import Secrets
@testable import SecretsAudit
import Testing

@Suite("The audit file is a MAC chain: records are kept; an edit, removal, reorder or cut is found by line")
struct AuditFileSinkTests {
    let directory: TemporaryDirectory
    let keyStore: AggregateSecretsStore
    let fileURL: URL

    init() throws {
        directory = try TemporaryDirectory()
        keyStore = AggregateSecretsStore(backend: try BackendKind.encryptedFileAES.makeBackend(in: directory))
        fileURL = directory.appending("audit.jsonl")
    }

    private var keys: AuditKeyStore { AuditKeyStore(store: keyStore) }

    private static func event(_ number: Int, outcome: SecretsAuditEvent.Outcome = .found) -> SecretsAuditEvent {
        SecretsAuditEvent(
            time: Date(timeIntervalSince1970: 1_790_000_000 + Double(number)), operation: .read, service: "coffer",
            account: "app/item-\(number)", backend: "encrypted-file", outcome: outcome,
            duration: .microseconds(40 + number), caller: number.isMultiple(of: 2) ? "refresh" : nil)
    }

    /// Writes `count` events through a sink, closes it, and returns the file's lines.
    @discardableResult
    private func write(_ count: Int, durability: AuditFileSink.Durability = .buffered) throws -> [String] {
        let sink = try AuditFileSink(url: fileURL, keys: keys, durability: durability)
        for number in 1...count { sink.record(Self.event(number)) }
        try sink.close()
        return try lines()
    }

    private func lines() throws -> [String] {
        try String(contentsOf: fileURL, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    private func rewrite(_ lines: [String]) throws {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: fileURL)
    }

    private func verify() throws -> AuditFileReport {
        try AuditFileVerifier.verify(fileAt: fileURL, keys: keys)
    }

    @Test("records read back as the events written, numbered from 1, and the file verifies intact")
    func roundTrip() throws {
        let lines = try write(5)
        #expect(lines.count == 5)
        let records = lines.compactMap { AuditFileRecord.parse(Data($0.utf8)) }.map(\.record)
        #expect(records.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(records.map(\.event) == (1...5).map { Self.event($0) })
        #expect(records.allSatisfy { $0.processID == getpid() })
        let report = try verify()
        #expect(report.isIntact && report.recordCount == 5 && report.lastSequence == 5 && report.checkedCheckpoint)
    }

    @Test(
        "paths, callers and reasons with quotes, backslashes or control characters read back as written"
    )
    func escaping() throws {
        let awkward = "a\"b\\c\nd\re\tf\u{01}g/h é"
        var event = Self.event(1)
        event.caller = awkward
        event.reason = awkward
        let sink = try AuditFileSink(url: fileURL, keys: keys)
        sink.record(event)
        try sink.close()
        let lines = try lines()
        #expect(lines.count == 1)
        #expect(AuditFileRecord.parse(Data(lines[0].utf8))?.record.event == event)
        #expect(try verify().isIntact)
    }

    /// The MAC is the HMAC-SHA256 of the line up to its `mac` member, under keys shorter than, as long as and longer
    /// than SHA-256's block.
    @Test(
        "a line is the documented format byte for byte: sorted members, Base64 MACs, the line's HMAC-SHA256",
        arguments: [Data(), Data((0..<32).map(UInt8.init))], [16, 32, 64, 65, 100])
    func lineFormat(previousMAC: Data, keyLength: Int) throws {
        let key = SymmetricKey(data: Data((0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 7) }))
        let event = SecretsAuditEvent(
            time: Date(timeIntervalSince1970: 1_790_000_000.5), operation: .read, service: "coffer",
            account: "ai/openai", backend: "encrypted-file", outcome: .found, duration: .microseconds(41),
            caller: "refresh")
        let record = AuditFileRecord(sequence: 7, previousMAC: previousMAC, processID: 4242, event: event)
        let authenticated =
            #"{"account":"ai/openai","backend":"encrypted-file","caller":"refresh","duration_us":41,"op":"read","#
            + #""outcome":"found","pid":4242,"prev":"\#(previousMAC.base64EncodedString())","seq":7,"#
            + #""service":"coffer","time":"2026-09-21T14:13:20.500Z","v":1}"#
        let mac = Data(HMAC<SHA256>.authenticationCode(for: Data(authenticated.utf8), using: key))
        let expected = authenticated.dropLast() + #","mac":"\#(mac.base64EncodedString())"}"# + "\n"
        let (line, lineMAC) = record.line(key: key)
        #expect(String(decoding: line, as: UTF8.self) == expected)
        #expect(lineMAC == mac)
        let parsed = try #require(AuditFileRecord.parse(line.dropLast()))
        #expect(parsed.record == record && parsed.isAuthentic(under: key))
    }

    @Test("times read back to the millisecond, across years and before 1970")
    func timestamps() throws {
        let times = [0, -86_400.5, 951_782_400.999, 1_790_000_000.123, 4_102_444_799.5].map(
            Date.init(timeIntervalSince1970:))
        let sink = try AuditFileSink(url: fileURL, keys: keys)
        for (index, time) in times.enumerated() {
            var event = Self.event(index)
            event.time = time
            sink.record(event)
        }
        try sink.close()
        let read = try lines().compactMap { AuditFileRecord.parse(Data($0.utf8))?.record.event.time }
        #expect(read.count == times.count)
        for (written, back) in zip(times, read) {
            #expect(abs(written.timeIntervalSince1970 - back.timeIntervalSince1970) < 0.001)
            #expect(back <= written)
        }
    }

    @Test(
        "the key: 32 random bytes in the secret store, then the checkpoint ledger; the file is owner-only"
    )
    func keyAndMode() throws {
        try write(1)
        let item = try #require(try keyStore.readData(account: AuditKeyStore.defaultKeyAccount))
        #expect(item.count > 32)
        let ledger = try JSONSerialization.jsonObject(with: item.dropFirst(32)) as? [String: [String: Int]]
        #expect(ledger?["files"]?.values.sorted() == [1])
        #expect(try keys.key()?.withUnsafeBytes { Data($0) } == item.prefix(32))
        let attributes = try FileManager.default.attributesOfItem(atPath: fileURL.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("an edited record is reported on its line")
    func edited() throws {
        var lines = try write(5)
        lines[2] = lines[2].replacingOccurrences(of: #""outcome":"found""#, with: #""outcome":"missing""#)
        try rewrite(lines)
        let report = try verify()
        #expect(report.findings.map(\.kind) == [.edited])
        #expect(report.findings.first?.line == 3)
        #expect(report.findings.first?.message.contains("line 3") == true)
    }

    @Test("in a file long enough to be read on every core, findings keep their lines: edit, removal, blank")
    func longFile() throws {
        var lines = try write(3_000)
        lines[2_499] = lines[2_499].replacingOccurrences(of: #""outcome":"found""#, with: #""outcome":"missing""#)
        lines.remove(at: 1_200)
        lines.insert("", at: 10)
        try rewrite(lines)
        let report = try verify()
        #expect(report.recordCount == 2_999)
        #expect(report.findings.map(\.kind) == [.malformed, .removed, .edited])
        #expect(report.findings.map(\.line) == [11, 1_202, 2_500])
        #expect(report.findings[1].message == "record 1201 is missing before line 1202 (record 1202)")
    }

    @Test("removed records are reported before the line that follows the gap; a removed first record too")
    func removedRuns() throws {
        var lines = try write(8)
        lines.removeSubrange(4...5)
        lines.removeFirst()
        try rewrite(lines)
        let report = try verify()
        #expect(report.findings.map(\.kind) == [.removed, .removed])
        #expect(
            report.findings.map(\.message) == [
                "record 1 is missing before line 1 (record 2)", "records 5–6 are missing before line 4 (record 7)",
            ])
    }

    @Test("a removed record is reported before the line that follows the gap")
    func removed() throws {
        var lines = try write(6)
        lines.remove(at: 3)
        try rewrite(lines)
        let report = try verify()
        #expect(report.findings.map(\.kind) == [.removed])
        #expect(report.findings.first?.line == 4)
        #expect(report.findings.first?.message.contains("record 4 is missing") == true)
    }

    @Test("swapped records are reported where the order breaks")
    func reordered() throws {
        var lines = try write(6)
        lines.swapAt(1, 2)
        try rewrite(lines)
        let report = try verify()
        #expect(report.findings.map(\.kind) == [.reordered])
        #expect(report.findings.map(\.line) == [3])
    }

    @Test("records cut from the end are found through the checkpoint in the secret store")
    func truncated() throws {
        let lines = try write(6)
        try rewrite(Array(lines.prefix(4)))
        let report = try verify()
        #expect(report.findings.map(\.kind) == [.truncated])
        #expect(report.findings.first?.message.contains("records 5–6") == true)
    }

    /// The account of the file's checkpoint in the key store.
    private func checkpointAccount() throws -> String {
        try #require(
            try keyStore.listAccounts().first { $0.hasPrefix(AuditKeyStore.defaultKeyAccount + "-checkpoints/") })
    }

    @Test("once a checkpoint exists, an emptied or deleted file fails verification, and no writer continues it")
    func emptiedOrDeleted() throws {
        try write(3)
        try Data().write(to: fileURL)
        #expect(try verify().findings.map(\.kind) == [.truncated])
        #expect(throws: SecretsAuditError.self, "a writer buries no loss under new records") {
            try AuditFileSink(url: fileURL, keys: keys)
        }
        #expect(try Data(contentsOf: fileURL).isEmpty)
        try FileManager.default.removeItem(at: fileURL)
        let report = try verify()
        #expect(report.findings.map(\.kind) == [.truncated])
        #expect(report.findings.first?.message.contains("records 1–3") == true)
        // Moved aside on purpose: the operator forgets its checkpoints, and a new chain starts there.
        try keys.forgetCheckpoints(forFileAt: fileURL)
        try write(2)
        #expect(try verify().isIntact)
    }

    @Test("a file replaced by another chain fails verification, and so does a file and checkpoint both deleted")
    func replacedOrCheckpointRemoved() throws {
        try write(3)
        let original = try Data(contentsOf: fileURL)
        try keys.forgetCheckpoints(forFileAt: fileURL)
        try FileManager.default.removeItem(at: fileURL)
        let sink = try AuditFileSink(url: fileURL, keys: keys)
        for number in 10...12 { sink.record(Self.event(number)) }
        try sink.close()
        let replacement = try Data(contentsOf: fileURL)
        try original.write(to: fileURL)
        #expect(try verify().findings.map(\.kind).contains(.checkpointMismatch))
        try replacement.write(to: fileURL)
        #expect(try verify().isIntact)

        try FileManager.default.removeItem(at: fileURL)
        #expect(try keyStore.deleteData(account: try checkpointAccount()))
        #expect(try verify().findings.map(\.kind) == [.checkpointMissing])
    }

    @Test("a checkpoint put back from an older copy of the store is found, even with the file cut to match it")
    func checkpointRolledBack() throws {
        let first = try write(2)
        let account = try checkpointAccount()
        let older = try #require(try keyStore.readData(account: account))
        try write(2)
        try keyStore.saveData(older, account: account)
        try rewrite(first)
        let kinds = try verify().findings.map(\.kind)
        #expect(kinds == [.checkpointRolledBack], "\(kinds)")
    }

    @Test(
        "a forged line with an enormous sequence number is refused at once and never continued from",
        .timeLimit(.minutes(1)), arguments: ["18446744073709551615", "1000000000000000000", "1e18", "281474976710657"])
    func forgedSequence(_ sequence: String) throws {
        let lines = try write(3)
        let forged = lines[2].replacingOccurrences(of: #""seq":3"#, with: #""seq":\#(sequence)"#)
        try rewrite(lines + [forged])
        try write(2)
        let report = try verify()
        #expect(report.lastSequence == 5 && report.recordCount == 5)
        #expect(report.findings.map(\.kind) == [.malformed])
        #expect(report.findings.first?.line == 4)
    }

    @Test(
        "a forged line within the numbering is reported; the writer chains from the last authentic record"
    )
    func forgedAuthenticLooking() throws {
        let lines = try write(3)
        let forged = lines[2].replacingOccurrences(of: #""seq":3"#, with: #""seq":4"#)
        try rewrite(lines + [forged])
        try write(1)
        let records = try self.lines().compactMap { AuditFileRecord.parse(Data($0.utf8))?.record }
        #expect(records.map(\.sequence) == [1, 2, 3, 4, 4])
        #expect(records[4].previousMAC == AuditFileRecord.parse(Data(lines[2].utf8))?.mac)
        #expect(try verify().findings.map(\.kind).contains(.edited))
    }

    @Test("without the audit key verification is a typed error, and under another key every line fails")
    func missingKey() throws {
        try write(2)
        let otherStore = AggregateSecretsStore(backend: InMemoryBackend())
        #expect(throws: SecretsAuditError.missingKey(account: AuditKeyStore.defaultKeyAccount)) {
            try AuditFileVerifier.verify(fileAt: fileURL, keys: AuditKeyStore(store: otherStore))
        }
        try otherStore.saveData(Data(repeating: 7, count: 32), account: AuditKeyStore.defaultKeyAccount)
        let report = try AuditFileVerifier.verify(fileAt: fileURL, keys: AuditKeyStore(store: otherStore))
        #expect(report.findings.map(\.kind) == [.edited, .edited])
    }

    @Test("a copied record inserted between two others is found out of order")
    func inserted() throws {
        var lines = try write(4)
        lines.insert(lines[1], at: 2)
        try rewrite(lines)
        #expect(try verify().findings.map(\.kind) == [.duplicated])
    }

    @Test("a file that holds records is not continued under a new key when the store has lost the old one")
    func lostKey() throws {
        try write(2)
        let otherStore = AggregateSecretsStore(backend: InMemoryBackend())
        #expect(throws: SecretsAuditError.missingKey(account: AuditKeyStore.defaultKeyAccount)) {
            try AuditFileSink(url: fileURL, keys: AuditKeyStore(store: otherStore))
        }
        #expect(try otherStore.listAccounts().isEmpty)
        #expect(try lines().count == 2)
    }

    @Test("two sinks on one file (as two processes would be) extend one chain")
    func twoWriters() throws {
        let first = try AuditFileSink(url: fileURL, keys: keys, durability: .synchronous)
        let second = try AuditFileSink(url: fileURL, keys: keys, durability: .synchronous)
        for number in 1...20 {
            (number.isMultiple(of: 2) ? first : second).record(Self.event(number))
        }
        try first.close()
        try second.close()
        let report = try verify()
        #expect(report.isIntact && report.recordCount == 20 && report.lastSequence == 20)
    }

    @Test("a later sink continues the chain a closed one left")
    func reopened() throws {
        try write(3)
        try write(2)
        let report = try verify()
        #expect(report.isIntact && report.lastSequence == 5)
    }

    @Test("after a line cut short, new records start on a new line and chain from the last whole record")
    func tornTail() throws {
        try write(3)
        let handle = try FileHandle(forWritingTo: fileURL)
        handle.seekToEndOfFile()
        handle.write(Data(#"{"v":1,"seq":4,"pr"#.utf8))
        try handle.close()
        try write(2)
        let report = try verify()
        #expect(report.findings.map(\.kind) == [.malformed])
        #expect(report.findings.first?.line == 4)
        #expect(report.lastSequence == 5 && report.recordCount == 5)
    }

    @Test("with synchronous durability a record is in the file when record returns")
    func synchronous() throws {
        let sink = try AuditFileSink(url: fileURL, keys: keys, durability: .synchronous)
        sink.record(Self.event(1))
        #expect(try lines().count == 1)
        sink.record(Self.event(2))
        #expect(try lines().count == 2)
        try sink.close()
    }

    @Test("a writer far behind makes record wait instead of dropping: all 5,000 records of 8 threads are kept")
    func backpressure() async throws {
        let sink = try AuditFileSink(url: fileURL, keys: keys, capacity: 16)
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    for number in 0..<625 { sink.record(Self.event(thread * 1000 + number)) }
                }
            }
        }
        try sink.flush()
        #expect(sink.queuedCount == 0)
        #expect(try lines().count == 5_000)
        try sink.close()
        #expect(try verify().isIntact)
    }

    @Test("a symbolic link or a directory is refused as the audit file")
    func refusesNonFiles() throws {
        let target = directory.appending("elsewhere")
        try Data().write(to: target)
        let link = directory.appending("link.jsonl")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(throws: SecretsAuditError.notARegularFile(path: link.path)) {
            try AuditFileSink(url: link, keys: keys)
        }
        let folder = directory.appending("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(throws: SecretsAuditError.self) { try AuditFileSink(url: folder, keys: keys) }
    }

    @Test("a file that is not there is an I/O error naming it")
    func missingFile() throws {
        _ = try keys.keyCreatingIfMissing()
        #expect(throws: SecretsAuditError.io(operation: "open", path: fileURL.path, code: ENOENT)) {
            try AuditFileVerifier.verify(fileAt: fileURL, keys: keys)
        }
    }

    @Test("events recorded after close are not written, and closing twice is harmless")
    func afterClose() throws {
        let sink = try AuditFileSink(url: fileURL, keys: keys)
        sink.record(Self.event(1))
        try sink.close()
        sink.record(Self.event(2))
        try sink.close()
        #expect(try lines().count == 1)
    }

    @Test("the file never holds a secret's value")
    func noValues() throws {
        let value = "sk-live-0123456789abcdef-not-for-files"
        let sink = try AuditFileSink(url: fileURL, keys: keys)
        let store = AuditedSecretsStore(
            AggregateSecretsStore(backend: InMemoryBackend()), audit: SecretsAudit(sinks: [sink]))
        try store.saveData(Data(value.utf8), account: "ai/openai")
        _ = try store.readData(account: "ai/openai")
        try sink.close()
        let contents = try Data(contentsOf: fileURL)
        #expect(contents.range(of: Data(value.utf8)) == nil)
        #expect(contents.range(of: Data(Data(value.utf8).base64EncodedString().utf8)) == nil)
        #expect(try lines().count == 2)
    }
}
