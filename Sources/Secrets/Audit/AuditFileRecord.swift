import Crypto
import Foundation

/// One line of an audit file: a ``SecretsAuditEvent`` with its place in the chain, as a JSON object whose last
/// member is a MAC.
///
/// ```
/// {"account":"ai/openai","backend":"encrypted-file","caller":"refresh","duration_us":41,"op":"read",
///  "outcome":"found","pid":4242,"prev":"<MAC of record 6>","seq":7,"service":"coffer",
///  "time":"2026-11-24T07:30:00.123Z","v":1,"mac":"<HMAC-SHA256 of everything before ,"mac">"}
/// ```
///
/// The MAC is HMAC-SHA256, under the audit key, of the line's bytes up to (not including) `,"mac":`, followed by
/// `}`: exactly the bytes written, so no re-encoding can change what is verified. Each record names its sequence
/// number (from 1) and the previous record's MAC (`""` for the first), so an edited record fails its MAC, and a
/// removed, inserted or reordered one breaks the numbering or the chain.
public struct AuditFileRecord: Hashable, Sendable {
    /// The record's place in the file's chain, from 1.
    public var sequence: UInt64
    /// The previous record's MAC (empty for the first record).
    public var previousMAC: Data
    /// The process that wrote the record.
    public var processID: Int32
    /// The access.
    public var event: SecretsAuditEvent

    /// The version of the record format.
    public static let version = 1

    /// Creates a record.
    public init(sequence: UInt64, previousMAC: Data, processID: Int32, event: SecretsAuditEvent) {
        self.sequence = sequence
        self.previousMAC = previousMAC
        self.processID = processID
        self.event = event
    }

    /// The record as one line, ending in `\n`, and its MAC under `key`.
    public func line(key: SymmetricKey) -> (line: Data, mac: Data) {
        AuditRecordEncoder(key: key).line(for: self)
    }

    /// A line as the file holds it (without its `\n`), read without checking its MAC.
    public struct Parsed: Hashable, Sendable {
        /// The record.
        public var record: AuditFileRecord
        /// The MAC the line carries.
        public var mac: Data
        /// The bytes the MAC covers.
        public var authenticatedBytes: Data

        /// Whether ``mac`` is the MAC of the line under `key`.
        public func isAuthentic(under key: SymmetricKey) -> Bool {
            HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: authenticatedBytes, using: key)
        }
    }

    /// Reads one line (without its `\n`); `nil` when it is not a record in this format.
    public static func parse(_ line: some DataProtocol) -> Parsed? {
        let bytes = Data(line)
        let marker = Data(#","mac":""#.utf8)
        guard bytes.count <= maximumLineLength, bytes.last == UInt8(ascii: "}"),
            let markerRange = bytes.range(of: marker, options: .backwards),
            bytes.count >= markerRange.upperBound + 2,
            bytes[bytes.count - 2] == UInt8(ascii: "\"")
        else { return nil }
        let encodedMAC = bytes[markerRange.upperBound..<(bytes.count - 2)]
        guard let mac = Data(base64Encoded: Data(encodedMAC)), mac.count == SHA256.byteCount else { return nil }
        var authenticated = Data(bytes[..<markerRange.lowerBound])
        authenticated.append(UInt8(ascii: "}"))
        guard let fields = try? decoder.decode(Fields.self, from: authenticated), let record = fields.record else {
            return nil
        }
        return Parsed(record: record, mac: mac, authenticatedBytes: authenticated)
    }

    /// The longest line a reader accepts; a record is a few hundred bytes.
    static let maximumLineLength = 16 * 1024

    private static let decoder = JSONDecoder()

    /// The JSON members of a line, MAC excepted, as ``AuditRecordEncoder`` writes them.
    private struct Fields: Decodable {
        var v: Int
        var seq: UInt64
        var prev: String
        var pid: Int32
        var time: String
        var op: String
        var service: String
        var account: String?
        var backend: String
        var outcome: String
        var duration_us: Int64
        var caller: String?
        var reason: String?

        var record: AuditFileRecord? {
            guard v == AuditFileRecord.version, let previousMAC = Data(base64Encoded: prev),
                let time = AuditTimestamp.date(from: time), let operation = SecretsAuditEvent.Operation(rawValue: op),
                let outcome = SecretsAuditEvent.Outcome(rawValue: outcome), duration_us >= 0
            else { return nil }
            let event = SecretsAuditEvent(
                time: time, operation: operation, service: service, account: account, backend: backend,
                outcome: outcome, duration: .microseconds(duration_us), caller: caller, reason: reason)
            return AuditFileRecord(sequence: seq, previousMAC: previousMAC, processID: pid, event: event)
        }
    }
}

/// The audit file's timestamps: RFC 3339 in UTC with milliseconds, `2026-11-24T07:30:00.123Z`, written and read
/// by hand (ISO8601DateFormatter costs microseconds per call, and parsing made it the verifier's main cost).
enum AuditTimestamp {
    static func string(from date: Date) -> String {
        var bytes: [UInt8] = []
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `date`'s timestamp to `bytes`: the milliseconds rounded down, so that a time never reads back later
    /// than it was.
    static func append(_ date: Date, to bytes: inout [UInt8]) {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        var seconds = time_t((milliseconds / 1000).rounded(.down))
        let fraction = Int(milliseconds - Double(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func append(_ value: Int, digits: Int) {
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8((rest / divisor) % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        append(Int(parts.tm_year) + 1900, digits: 4)
        bytes.append(UInt8(ascii: "-"))
        append(Int(parts.tm_mon) + 1, digits: 2)
        bytes.append(UInt8(ascii: "-"))
        append(Int(parts.tm_mday), digits: 2)
        bytes.append(UInt8(ascii: "T"))
        append(Int(parts.tm_hour), digits: 2)
        bytes.append(UInt8(ascii: ":"))
        append(Int(parts.tm_min), digits: 2)
        bytes.append(UInt8(ascii: ":"))
        append(Int(parts.tm_sec), digits: 2)
        bytes.append(UInt8(ascii: "."))
        append(fraction, digits: 3)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// The instant `string` names, in exactly the form ``string(from:)`` writes; `nil` otherwise.
    static func date(from string: String) -> Date? {
        let bytes = Array(string.utf8)
        guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            let millisecond = number(20..<23), (1...12).contains(month), (1...31).contains(day), hour < 24,
            minute < 60, second < 61
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: Double(seconds) + Double(millisecond) / 1000)
    }
}
