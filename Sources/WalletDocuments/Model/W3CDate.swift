import CofferSupport
import Foundation
import Secrets

/// The W3C (ISO 8601) dates of `pass.json` and issuer data: written with Foundation's format styles, read as
/// RFC 3339 (``RFC3339``).
package enum W3CDate {
    private static let wholeSeconds = Date.ISO8601FormatStyle()
    private static let fractionalSeconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `date` in UTC, e.g. `2026-11-22T07:39:59Z`; with milliseconds only when the date has a fraction of a second.
    package static func string(from date: Date) -> String {
        let hasFraction = date.timeIntervalSinceReferenceDate.rounded(.down) != date.timeIntervalSinceReferenceDate
        return hasFraction ? fractionalSeconds.format(date) : wholeSeconds.format(date)
    }

    /// Parses a date with a `Z` or `±hh:mm` offset, with or without seconds and fractional seconds.
    package static func date(from text: String) -> Date? {
        RFC3339.date(text, secondsOptional: true)
    }
}
