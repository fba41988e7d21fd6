import Foundation

/// HTTP dates (`Last-Modified`, `If-Modified-Since`): IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    /// `date` as an IMF-fixdate (whole seconds, rounded down).
    static func format(_ date: Date) -> String {
        formatter().string(from: date)
    }

    /// The date of an IMF-fixdate, or `nil` for anything else.
    static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 64 else { return nil }
        return formatter().date(from: text)
    }

    /// A formatter per call: web service fetches are rare, and a formatter shared between threads needs a lock.
    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}
