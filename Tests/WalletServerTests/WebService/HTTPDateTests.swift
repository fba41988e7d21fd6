import Foundation
import Testing

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("HTTP dates: IMF-fixdate written and read as Foundation's DateFormatter does")
struct HTTPDateTests {
    static func reference() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }

    @Test("every date from 1970 to 2100, a step of 7 days and 13 h 17 min 29 s, matches DateFormatter both ways")
    func matchesFoundation() {
        let formatter = Self.reference()
        var seconds: TimeInterval = 0
        while seconds < 4_102_444_800 {
            let date = Date(timeIntervalSince1970: seconds)
            let text = HTTPDate.format(date)
            #expect(text == formatter.string(from: date))
            #expect(HTTPDate.parse(text) == formatter.date(from: text))
            seconds += 7 * 86_400 + 13 * 3600 + 17 * 60 + 29
        }
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 784_111_777.9)) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test(
        "anything but an exact IMF-fixdate is refused",
        arguments: [
            "", "Sun, 06 Nov 1994 08:49:37 UTC", "Mon, 06 Nov 1994 08:49:37 GMT", "Sun, 31 Feb 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "Sun, 6 Nov 1994 08:49:37 GMT ", "Sun, 06 Xyz 1994 08:49:37 GMT", "Sun, 0a Nov 1994 08:49:37 GMT",
        ])
    func refusals(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
