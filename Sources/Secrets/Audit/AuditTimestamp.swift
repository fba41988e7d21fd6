import Foundation

/// The audit file's timestamps: RFC 3339 in UTC with milliseconds, `2026-11-24T07:30:00.123Z`, written and read
/// by hand (ISO8601DateFormatter costs microseconds per call, and parsing made it the verifier's main cost).
enum AuditTimestamp {
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
