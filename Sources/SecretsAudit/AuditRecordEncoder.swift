import CofferSupport
import Crypto
import Foundation
import Secrets

/// Writes ``AuditFileRecord``s as lines, byte by byte, with the HMAC keyed once: the audit file writer's hot loop.
///
/// The members come in sorted order with no insignificant space, strings escaped as JSON requires (`"`, `\`, control
/// characters; `/` and non-ASCII as they are), the time as RFC 3339 in UTC with milliseconds. Verification reads the
/// bytes the MAC covers as they are, so nothing depends on another encoder producing the same bytes. Not `Sendable`
/// (CryptoKit's `SHA256` is not, on older SDKs): one writer thread uses it.
struct AuditRecordEncoder {
    private let mac: AuditRecordMAC
    /// The audit key, with which a writer also authenticates the record it continues the chain from.
    let key: SymmetricKey

    init(key: SymmetricKey) {
        mac = AuditRecordMAC(key: key)
        self.key = key
    }

    /// The record as one line, ending in `\n`, and its MAC.
    func line(for record: AuditFileRecord) -> (line: Data, mac: Data) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(384)
        let mac = append(record, to: &bytes)
        return (Data(bytes), mac)
    }

    /// Appends the record's line, ending in `\n`, to `bytes` (a batch's lines go into one buffer), and returns its
    /// MAC.
    func append(_ record: AuditFileRecord, to bytes: inout [UInt8]) -> Data {
        let event = record.event
        let start = bytes.count
        bytes.append(UInt8(ascii: "{"))
        if let account = event.account { Self.member("account", string: account, into: &bytes) }
        Self.member("backend", string: event.backend, into: &bytes)
        if let caller = event.caller { Self.member("caller", string: caller, into: &bytes) }
        Self.member("duration_us", number: UInt64(max(0, event.durationMicroseconds)), into: &bytes)
        Self.member("op", string: event.operation.rawValue, into: &bytes)
        Self.member("outcome", string: event.outcome.rawValue, into: &bytes)
        Self.name("pid", into: &bytes)
        if record.processID < 0 { bytes.append(UInt8(ascii: "-")) }
        ASCIIDecimal.append(UInt64(record.processID.magnitude), to: &bytes)
        Self.name("prev", into: &bytes)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: record.previousMAC.base64EncodedData())
        bytes.append(UInt8(ascii: "\""))
        if let reason = event.reason { Self.member("reason", string: reason, into: &bytes) }
        Self.member("seq", number: record.sequence, into: &bytes)
        Self.member("service", string: event.service, into: &bytes)
        Self.name("time", into: &bytes)
        bytes.append(UInt8(ascii: "\""))
        RFC3339.appendMilliseconds(event.time, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        Self.member("v", number: UInt64(AuditFileRecord.version), into: &bytes)
        bytes.append(UInt8(ascii: "}"))
        let mac = bytes.withUnsafeBytes { self.mac.code(for: UnsafeRawBufferPointer(rebasing: $0[start...])) }
        bytes.removeLast()
        bytes.append(contentsOf: #","mac":""#.utf8)
        bytes.append(contentsOf: mac.base64EncodedData())
        bytes.append(contentsOf: "\"}\n".utf8)
        return mac
    }

    /// Appends a member's name, after a comma unless it is the line's first.
    private static func name(_ name: String, into bytes: inout [UInt8]) {
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: #"":"#.utf8)
    }

    private static func member(_ key: String, number: UInt64, into bytes: inout [UInt8]) {
        name(key, into: &bytes)
        ASCIIDecimal.append(number, to: &bytes)
    }

    private static func member(_ key: String, string: String, into bytes: inout [UInt8]) {
        name(key, into: &bytes)
        JSONString.append(string, to: &bytes)
    }
}
