import Foundation

/// Dates as the server writes them in JSON and log lines.
public enum ISO8601 {
    /// `text` read as an ISO 8601 date and time in UTC, such as `2026-12-31T19:00:00Z` or, with milliseconds,
    /// `2026-12-31T19:00:00.250Z`; nil when it is missing or not one.
    public static func date(_ text: String?) -> Date? {
        guard let text else { return nil }
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }
}
