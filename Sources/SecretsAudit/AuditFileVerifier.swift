import Crypto
import Foundation
import Secrets

/// Checks an audit file written by ``AuditFileSink``: every record's MAC, the numbering, the chain, and the
/// checkpoint in the secret store, and says on which line each problem is.
public enum AuditFileVerifier {
    /// Verifies the file at `url` with the key and checkpoint kept in `keys`.
    ///
    /// - Throws: ``SecretsAuditError/missingKey(account:)`` when the store has no audit key, ``SecretsAuditError``
    ///   when the key or the file cannot be read.
    ///
    /// Once a checkpoint was saved for the file, a file that is gone, emptied, cut before the checkpoint or holding
    /// another chain fails, and so does a checkpoint removed from the store or put back from an older copy (the
    /// ledger beside the key counts them).
    public static func verify(fileAt url: URL, keys: AuditKeyStore) throws(SecretsAuditError) -> AuditFileReport {
        guard let key = try keys.key() else { throw .missingKey(account: keys.keyAccount) }
        guard FileManager.default.fileExists(atPath: url.path) else {
            // A file that is gone is tampering only if something was written to it.
            guard let written = try keys.checkpoint(forFileAt: url)?.sequence else {
                if try keys.savedCheckpointCount(forFileAt: url) != nil {
                    var report = AuditFileReport()
                    report.add(
                        .checkpointMissing, line: nil,
                        "the audit file and its checkpoint are both gone, but checkpoints of it were saved")
                    return report
                }
                throw .io(operation: "open", path: url.path, code: ENOENT)
            }
            var report = AuditFileReport()
            report.checkedCheckpoint = true
            report.add(
                .truncated, line: nil, sequence: written,
                "the audit file is gone, but records 1–\(written) were written to it")
            return report
        }
        // Read under the writers' lock, the checkpoint too, so that a batch being appended is seen whole or not at all
        // and the checkpoint is never newer than the bytes read.
        return try AuditFile.readLocked(url) { (contents) throws(SecretsAuditError) -> AuditFileReport in
            let firstMAC = contents.split(separator: UInt8(ascii: "\n"), maxSplits: 1).first
                .flatMap { AuditFileRecord.parse($0)?.mac }
            let saved = try keys.savedCheckpointCount(forFileAt: url)
            var checkpoint = try keys.checkpoint(forFileAt: url)
            if checkpoint == nil, saved == nil, let firstMAC {
                checkpoint = try keys.checkpoint(ofChainStartingWith: firstMAC)  // an earlier version's
            }
            var report = verify(contents, key: key, checkpoint: checkpoint)
            if let saved {
                if checkpoint == nil {
                    report.add(
                        .checkpointMissing, line: nil,
                        "the file's checkpoint is missing from the store, though \(saved) were saved")
                } else if let counter = checkpoint?.counter, counter < saved {
                    report.add(
                        .checkpointRolledBack, line: nil,
                        "the file's checkpoint in the store is number \(counter), but \(saved) were saved: it was put "
                            + "back from an older copy")
                }
            }
            return report
        }
    }

    /// Verifies `contents`, an audit file's bytes, under `key`; with a `checkpoint`, also that no record it saw was
    /// cut from the end.
    public static func verify(_ contents: Data, key: SymmetricKey, checkpoint: AuditCheckpoint?) -> AuditFileReport {
        var report = AuditFileReport()
        var previous: (sequence: UInt64, mac: Data, authentic: Bool)?
        var highest: UInt64 = 0
        var lineOfSequence: [UInt64: Int] = [:]
        var macOfSequence: [UInt64: Data] = [:]
        let lines = AuditFileRecord.lineRanges(of: contents)
        let readings = read(lines, of: contents, key: key)
        for (index, line) in lines.enumerated() {
            let number = index + 1
            if line.isEmpty {
                if index != lines.count - 1 { report.add(.malformed, line: number, "line \(number) is empty") }
                continue
            }
            guard let (parsed, authentic) = readings[index] else {
                report.add(
                    .malformed, line: number,
                    "line \(number) is not an audit record: it was cut short, or edited beyond reading")
                continue
            }
            let sequence = parsed.record.sequence
            report.recordCount += 1
            if !authentic {
                report.add(
                    .edited, line: number, sequence: sequence,
                    "line \(number) (record \(sequence)) was edited: its MAC does not match its content")
            }
            if let earlier = lineOfSequence[sequence] {
                report.add(
                    .duplicated, line: number, sequence: sequence,
                    "line \(number) repeats record \(sequence) of line \(earlier)")
            } else if sequence < highest {
                report.add(
                    .reordered, line: number, sequence: sequence,
                    "line \(number) holds record \(sequence) after record \(highest): records were reordered")
            } else if let previous, sequence == previous.sequence + 1, previous.authentic, authentic,
                parsed.record.previousMAC != previous.mac
            {
                report.add(
                    .chainBroken, line: number, sequence: sequence,
                    "line \(number) (record \(sequence)) does not follow the record before it: a record was replaced")
            } else if sequence == 1, !parsed.record.previousMAC.isEmpty {
                report.add(
                    .chainBroken, line: number, sequence: sequence,
                    "line \(number) claims to start the chain but names a predecessor")
            }
            lineOfSequence[sequence] = lineOfSequence[sequence] ?? number
            macOfSequence[sequence] = macOfSequence[sequence] ?? parsed.mac
            highest = max(highest, sequence)
            if report.firstTime == nil { report.firstTime = parsed.record.event.time }
            report.lastTime = parsed.record.event.time
            previous = (sequence, parsed.mac, authentic)
        }
        report.addGaps(lineOfSequence: lineOfSequence)
        report.lastSequence = highest
        if let checkpoint {
            report.checkedCheckpoint = true
            if highest < checkpoint.sequence {
                report.add(
                    .truncated, line: nil, sequence: checkpoint.sequence,
                    "the file ends at record \(highest), but record \(checkpoint.sequence) was written: "
                        + "records \(highest + 1)–\(checkpoint.sequence) were removed from the end")
            } else if let expected = checkpoint.firstMAC, let first = macOfSequence[1], first != expected {
                report.add(
                    .checkpointMismatch, line: lineOfSequence[1], sequence: 1,
                    "the file holds another chain than the one its checkpoint names: it was replaced")
            } else if let mac = macOfSequence[checkpoint.sequence], mac != checkpoint.mac {
                report.add(
                    .checkpointMismatch, line: nil, sequence: checkpoint.sequence,
                    "record \(checkpoint.sequence) is not the record that was written: the file was rewritten")
            }
        }
        report.findings.sort { ($0.line ?? .max, $0.sequence ?? 0) < ($1.line ?? .max, $1.sequence ?? 0) }
        return report
    }

    /// Each line parsed (`nil`: not a record) and whether its MAC is authentic under `key`: the costly part of
    /// verifying, done on every core, since no line's reading depends on another's.
    private static func read(
        _ lines: [Range<Int>], of contents: Data, key: SymmetricKey
    ) -> [(AuditFileRecord.Parsed, authentic: Bool)?] {
        let chunkCount = lines.count < 1024 ? 1 : ProcessInfo.processInfo.activeProcessorCount * 4
        let chunkLength = (lines.count + chunkCount - 1) / max(1, chunkCount)
        let chunks = Locked([[(AuditFileRecord.Parsed, authentic: Bool)?]](repeating: [], count: chunkCount))
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let range = min(lines.count, chunk * chunkLength)..<min(lines.count, (chunk + 1) * chunkLength)
            let read = lines[range].map { line -> (AuditFileRecord.Parsed, authentic: Bool)? in
                guard let parsed = AuditFileRecord.parse(contents[line]) else { return nil }
                return (parsed, parsed.isAuthentic(under: key))
            }
            chunks.withLock { $0[chunk] = read }
        }
        return chunks.withLock { $0.flatMap { $0 } }
    }
}

/// What ``AuditFileVerifier`` found.
public struct AuditFileReport: Hashable, Sendable {
    /// One problem, and where it is.
    public struct Finding: Hashable, Sendable, CustomStringConvertible {
        /// The kind of problem.
        public enum Kind: String, Hashable, Sendable {
            /// A line that is not a record.
            case malformed
            /// A record whose MAC does not match its content.
            case edited
            /// Records missing from the numbering.
            case removed
            /// A record out of its place.
            case reordered
            /// A record that appears twice.
            case duplicated
            /// A record whose predecessor is not the record it was chained to.
            case chainBroken
            /// Records cut from the end (the checkpoint saw later ones).
            case truncated
            /// The record the checkpoint saw is not in the file.
            case checkpointMismatch
            /// The file's checkpoint was removed from the secret store.
            case checkpointMissing
            /// The file's checkpoint in the secret store is older than the last one saved.
            case checkpointRolledBack
        }

        /// The kind of problem.
        public var kind: Kind
        /// The line (from 1), when the problem is on one.
        public var line: Int?
        /// The record's sequence number, when known.
        public var sequence: UInt64?
        /// What is wrong and where, in a sentence.
        public var message: String

        /// The message.
        public var description: String { message }
    }

    /// The problems, in file order; empty when the file is intact.
    public var findings: [Finding] = []
    /// How many lines read as records.
    public var recordCount = 0
    /// The last record's sequence number.
    public var lastSequence: UInt64 = 0
    /// When the first record was written.
    public var firstTime: Date?
    /// When the last record was written.
    public var lastTime: Date?
    /// Whether a checkpoint from the secret store was compared with the file's end.
    public var checkedCheckpoint = false

    /// Whether nothing was found.
    public var isIntact: Bool { findings.isEmpty }

    /// Reports each run of sequence numbers below the highest that no line holds, on the line of the record after
    /// it: computed from the numbers present, so a forged enormous number costs nothing to check.
    mutating func addGaps(lineOfSequence: [UInt64: Int]) {
        var previous: UInt64 = 0
        for sequence in lineOfSequence.keys.sorted() {
            defer { previous = sequence }
            guard sequence > previous + 1 else { continue }
            let (start, end) = (previous + 1, sequence - 1)
            let line = lineOfSequence[sequence]
            let missing = end == start ? "record \(start) is" : "records \(start)–\(end) are"
            add(
                .removed, line: line, sequence: start,
                "\(missing) missing" + (line.map { " before line \($0) (record \(sequence))" } ?? ""))
        }
    }

    mutating func add(_ kind: Finding.Kind, line: Int?, sequence: UInt64? = nil, _ message: String) {
        findings.append(Finding(kind: kind, line: line, sequence: sequence, message: message))
    }
}
