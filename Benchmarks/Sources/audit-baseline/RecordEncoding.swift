import Crypto
import Foundation
import Secrets

/// `audit-baseline <scratch> encode [records]`: what writing one audit-file record costs the writer thread, with
/// ``AuditFileRecord/line(key:)`` (JSONEncoder, ISO8601DateFormatter, an HMAC keyed per record) against a
/// hand-written encoder of the same bytes (``FastRecordLine``), and whether the two lines are byte for byte equal.
func compareRecordEncoding(_ arguments: [String]) {
    let count = arguments.count > 3 ? Int(arguments[3]) ?? 100_000 : 100_000
    let key = SymmetricKey(size: .bits256)
    let start = Date()
    let events = (0..<count).map { number in
        SecretsAuditEvent(
            time: start.addingTimeInterval(Double(number) * 0.000_37), operation: .read, service: "coffer",
            account: "bench/value-64", backend: "in-memory", outcome: .found, duration: .nanoseconds(2_300 + number),
            caller: number.isMultiple(of: 2) ? "refresh" : nil)
    }
    // The records of one chain, as the library writes it; the hand-written encoder then writes the same records.
    var records: [AuditFileRecord] = []
    records.reserveCapacity(events.count)
    var libraryLines: [Data] = []
    libraryLines.reserveCapacity(events.count)
    var previous = Data()
    var begin = DispatchTime.now().uptimeNanoseconds
    for (index, event) in events.enumerated() {
        let record = AuditFileRecord(
            sequence: UInt64(index + 1), previousMAC: previous, processID: getpid(), event: event)
        let (bytes, mac) = record.line(key: key)
        previous = mac
        records.append(record)
        libraryLines.append(bytes)
    }
    let libraryTime = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9
    let fast = FastRecordLine(key: key)
    var fastLines: [Data] = []
    fastLines.reserveCapacity(events.count)
    begin = DispatchTime.now().uptimeNanoseconds
    for record in records { fastLines.append(fast.line(record).line) }
    let fastTime = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9
    let equal = zip(libraryLines, fastLines).filter { $0 == $1 }.count
    print("records \(count)")
    print(String(format: "AuditFileRecord.line(key:)  %.2f us/record", libraryTime / Double(count) * 1e6))
    print(String(format: "hand-written line           %.2f us/record", fastTime / Double(count) * 1e6))
    print("byte-identical lines \(equal) of \(count)")
    if let index = libraryLines.indices.first(where: { libraryLines[$0] != fastLines[$0] }) {
        print("first difference:\n  \(String(decoding: libraryLines[index], as: UTF8.self))")
        print("  \(String(decoding: fastLines[index], as: UTF8.self))")
    }
    // Strings that need escaping, through both encoders.
    let awkward = ["quote\"d", "back\\slash", "slash/ed", "tab\there", "line\nbreak", "bell\u{07}", "é ✓ 🔑", "\u{7f}"]
    var awkwardEqual = 0
    for text in awkward {
        let event = SecretsAuditEvent(
            time: start, operation: .save, service: text, account: text, backend: "b", outcome: .failed,
            duration: .microseconds(1), caller: text, reason: "corruptData")
        let record = AuditFileRecord(sequence: 1, previousMAC: Data(), processID: 1, event: event)
        let (library, fastLine) = (record.line(key: key), fast.line(record))
        if library == fastLine {
            awkwardEqual += 1
        } else {
            print("differs for \(text.debugDescription):\n  \(String(decoding: library.line, as: UTF8.self))")
            print("  \(String(decoding: fastLine.line, as: UTF8.self))")
        }
    }
    print("byte-identical awkward strings \(awkwardEqual) of \(awkward.count)")
}
