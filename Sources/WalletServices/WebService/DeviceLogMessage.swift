import Foundation

/// A message a device sent to `POST /v1/log`, made safe to log and store: the text comes from anyone.
enum DeviceLogMessage {
    /// `message` with every control and format character (newlines, escape sequences, bidirectional overrides)
    /// written as `\u{…}`, then cut to at most `maximumBytes` of UTF-8 at a scalar boundary (a character with
    /// thousands of combining marks is cut too).
    static func sanitized(_ message: String, maximumBytes: Int) -> String {
        var kept = String.UnicodeScalarView()
        var bytes = 0
        for scalar in message.unicodeScalars {
            let text: String
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                text = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                text = String(scalar)
            }
            bytes += text.utf8.count
            guard bytes <= maximumBytes else { break }
            kept.append(contentsOf: text.unicodeScalars)
        }
        return String(kept)
    }
}
