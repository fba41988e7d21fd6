import CofferSupport
import Foundation

/// Times that commands take: an RFC 3339 date and time (`2026-11-24T07:30:00Z`) or a day (`2026-11-24`, its start
/// in UTC).
enum CommandTime {
    /// The time `text` names, or `nil` when it is neither form.
    static func absolute(_ text: String) -> Date? {
        if let date = RFC3339.date(text) { return date }
        return try? Date.ISO8601FormatStyle().year().month().day().parse(text)
    }
}
