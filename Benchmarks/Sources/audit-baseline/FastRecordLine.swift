import Crypto
import Foundation
import Secrets

/// A sketch of a cheaper ``AuditFileRecord/line(key:)``, for the comparison `audit-baseline … encode` prints: the
/// same bytes (sorted keys, no escaped slashes, RFC 3339 UTC time with milliseconds), written straight into a byte
/// buffer instead of through JSONEncoder, the time formatted with `gmtime_r` instead of ISO8601DateFormatter, and the
/// HMAC keyed once and copied per record instead of keyed per record.
struct FastRecordLine {
    private let keyed: HMAC<SHA256>

    init(key: SymmetricKey) {
        keyed = HMAC<SHA256>(key: key)
    }

    func line(_ record: AuditFileRecord) -> (line: Data, mac: Data) {
        let event = record.event
        var bytes: [UInt8] = []
        bytes.reserveCapacity(320)
        bytes.append(UInt8(ascii: "{"))
        if let account = event.account { member("account", string: account, into: &bytes) }
        member("backend", string: event.backend, into: &bytes)
        if let caller = event.caller { member("caller", string: caller, into: &bytes) }
        member("duration_us", raw: String(event.durationMicroseconds), into: &bytes)
        member("op", string: event.operation.rawValue, into: &bytes)
        member("outcome", string: event.outcome.rawValue, into: &bytes)
        member("pid", raw: String(record.processID), into: &bytes)
        member("prev", string: record.previousMAC.base64EncodedString(), into: &bytes)
        if let reason = event.reason { member("reason", string: reason, into: &bytes) }
        member("seq", raw: String(record.sequence), into: &bytes)
        member("service", string: event.service, into: &bytes)
        member("time", string: Self.timestamp(event.time), into: &bytes)
        member("v", raw: String(AuditFileRecord.version), into: &bytes)
        bytes.append(UInt8(ascii: "}"))
        var hmac = keyed
        hmac.update(data: bytes)
        let mac = Data(hmac.finalize())
        bytes.removeLast()
        bytes.append(contentsOf: #","mac":""#.utf8)
        bytes.append(contentsOf: mac.base64EncodedString().utf8)
        bytes.append(contentsOf: "\"}\n".utf8)
        return (Data(bytes), mac)
    }

    private func member(_ name: String, raw: String, into bytes: inout [UInt8]) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: #"":"#.utf8)
        bytes.append(contentsOf: raw.utf8)
    }

    private func member(_ name: String, string: String, into bytes: inout [UInt8]) {
        member(name, raw: "", into: &bytes)
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
            case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `2026-11-24T07:30:00.123Z`: milliseconds rounded to the nearest, as ISO8601DateFormatter writes them (but
    /// for the rare instant where their floating-point arithmetic rounds the other way).
    static func timestamp(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        var milliseconds = Int(((interval - Double(seconds)) * 1000).rounded())
        if milliseconds >= 1000 {
            seconds += 1
            milliseconds -= 1000
        }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis =
            milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):"
            + "\(two(parts.tm_min)):\(two(parts.tm_sec)).\(millis)Z"
    }
}
