import Foundation

/// Reads RFC 3339 date-times (what OpenAPI's `format: date-time` means): `2026-12-31T19:00:00Z`, with `t`/`z` in
/// either case, any number of fractional digits, a `±hh:mm` offset, and a leap second (read as the second before).
/// Foundation's ISO 8601 parser refuses some of these, which a client may rightly send.
enum RFC3339Date {
    /// The date `text` names, or `nil` when it is not an RFC 3339 date-time or names a day that does not exist.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 64 else { return nil }
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
            expect("Tt"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2)
        else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            var scale = 0.1
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                fraction += Double(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
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
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let components = DateComponents(year: year, month: month, day: day)
        guard let midnight = calendar.date(from: components),
            calendar.component(.day, from: midnight) == day, calendar.component(.month, from: midnight) == month
        else { return nil }
        let seconds = Double(hour * 3600 + minute * 60 + min(second, 59)) + (second == 60 ? 0.999 : fraction)
        return midnight.addingTimeInterval(seconds - Double(offset))
    }
}
