import CofferSupport
import Crypto
import Foundation
import Secrets

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

    /// The byte ranges of `contents`' lines, without their `\n`: one more than there are `\n`s, the last empty when
    /// the file ends with one. Found over the raw bytes, which is much cheaper than splitting `Data`.
    package static func lineRanges(of contents: Data) -> [Range<Int>] {
        contents.withUnsafeBytes { bytes in
            var ranges: [Range<Int>] = []
            ranges.reserveCapacity(bytes.count / 256 + 1)
            var start = 0
            while let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                ranges.append(start..<end)
                start = end + 1
            }
            ranges.append(start..<bytes.count)
            return ranges.map { ($0.lowerBound + contents.startIndex)..<($0.upperBound + contents.startIndex) }
        }
    }

    /// The longest line a reader accepts; a record is a few hundred bytes.
    static let maximumLineLength = 16 * 1024
    /// The highest sequence number a record may carry (2^48: centuries of records at a million a second), so that no
    /// line can make a writer overflow or a reader count without end.
    public static let maximumSequence: UInt64 = 1 << 48

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
            guard v == AuditFileRecord.version, (1...AuditFileRecord.maximumSequence).contains(seq),
                let previousMAC = Data(base64Encoded: prev),
                let time = RFC3339.date(time), let operation = SecretsAuditEvent.Operation(rawValue: op),
                let outcome = SecretsAuditEvent.Outcome(rawValue: outcome), duration_us >= 0
            else { return nil }
            let event = SecretsAuditEvent(
                time: time, operation: operation, service: service, account: account, backend: backend,
                outcome: outcome, duration: .microseconds(duration_us), caller: caller, reason: reason)
            return AuditFileRecord(sequence: seq, previousMAC: previousMAC, processID: pid, event: event)
        }
    }
}
