import Foundation

/// RFC 3339 date-times (ISO 8601's internet profile, W3C's date-time, OpenAPI's `format: date-time`), the one
/// codec for every timestamp Coffer reads or writes as text.
///
/// Reading accepts what a client may rightly send: `t`/`z` in either case, any number of fractional digits, a
/// `±hh:mm` offset, and a leap second (read as the second before); Foundation's ISO 8601 parser refuses some of
/// these. Writing in milliseconds is done by hand for the lines written per access, where a formatter cost too much
/// (`Benchmarks/RESULTS.md`).
package enum RFC3339 {
    /// The date `text` names, or `nil` when it is not an RFC 3339 date-time or names a day that does not exist.
    ///
    /// With `secondsOptional`, `2026-12-24T20:00+01:00` is read too: W3C's date-time, which `pass.json` uses, may
    /// leave out the seconds.
    package static func date(_ text: some StringProtocol, secondsOptional: Bool = false) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= (secondsOptional ? 17 : 20), bytes.count <= 64 else { return nil }
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += digits
            return value
        }
        func expect(_ allowed: String) -> Bool {
            guard index < bytes.count, allowed.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("Tt"), let hour = number(2), expect(":"), let minute = number(2)
        else { return nil }
        var second = 0
        let hasSeconds = index < bytes.count && bytes[index] == UInt8(ascii: ":")
        if hasSeconds {
            index += 1
            guard let parsed = number(2) else { return nil }
            second = parsed
        } else if !secondsOptional {
            return nil
        }
        var fraction = 0.0
        if hasSeconds, index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            var numerator = 0
            var denominator = 1
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                if index - start < 9 {
                    numerator = numerator * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                    denominator *= 10
                }
                index += 1
            }
            guard index > start else { return nil }
            fraction = Double(numerator) / Double(denominator)
        }
        var offset = 0
        if expect("Zz") {
            offset = 0
        } else {
            guard index < bytes.count else { return nil }
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard expect("+-"), let hours = number(2), expect(":"), let minutes = number(2), hours <= 23, minutes <= 59
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard index == bytes.count, (1...12).contains(month), day >= 1, hour <= 23, minute <= 59, second <= 60 else {
            return nil
        }
        guard day <= daysInMonth(month, year: year) else { return nil }
        let wholeSeconds =
            daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
            + min(second, 59) - offset
        return Date(timeIntervalSince1970: Double(wholeSeconds) + (second == 60 ? 0.999 : fraction))
    }

    /// The days in `month` of `year` in the proleptic Gregorian calendar.
    private static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date, by Howard Hinnant's `days_from_civil` (exact, no calendar object: dates are
    /// read on every pass signed).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Appends `date` in UTC with milliseconds, `2026-11-24T07:30:00.123Z`: rounded down, so that a time never reads
    /// back later than it was.
    package static func appendMilliseconds(_ date: Date, to bytes: inout [UInt8]) {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        var seconds = time_t((milliseconds / 1000).rounded(.down))
        let fraction = Int(milliseconds - Double(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        ASCIIDecimal.append(Int(parts.tm_year) + 1900, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        ASCIIDecimal.append(Int(parts.tm_mon) + 1, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        ASCIIDecimal.append(Int(parts.tm_mday), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        ASCIIDecimal.append(Int(parts.tm_hour), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ASCIIDecimal.append(Int(parts.tm_min), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ASCIIDecimal.append(Int(parts.tm_sec), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        ASCIIDecimal.append(fraction, width: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// `date` in UTC with milliseconds, `2026-11-24T07:30:00.123Z`.
    package static func milliseconds(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        appendMilliseconds(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
