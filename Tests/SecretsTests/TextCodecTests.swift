import CofferSupport
import Foundation
@testable import Secrets
import Testing

@Suite("Text written and read by hand: hex, decimal digits, JSON strings and RFC 3339 times")
struct TextCodecTests {
    @Test(
        "hex is ASCII digits and a-f in either case, two per byte, counted in bytes",
        arguments: [
            ("0a1B", true), ("", false), ("0", false), ("0g", false), ("\u{FF10}\u{FF11}", false),
            ("\u{FF41}0", false), (" 0a", false), ("0a\n", false),
        ])
    func hexValidity(_ text: String, _ valid: Bool) {
        #expect(Hex.isValid(text, maximumLength: .max) == valid)
        #expect((Hex.bytes(text) != nil) == (valid || text.isEmpty))
    }

    @Test("a hex length limit counts bytes")
    func hexLimit() {
        #expect(Hex.isValid(String(repeating: "ab", count: 4), maximumLength: 8))
        #expect(!Hex.isValid(String(repeating: "ab", count: 5), maximumLength: 8))
    }

    @Test("hex written from bytes reads back as the same bytes")
    func hexRoundTrip() {
        let bytes: [UInt8] = [0x00, 0x0F, 0x10, 0xAB, 0xFF]
        #expect(bytes.hexString == "000f10abff")
        #expect(Hex.bytes("000F10ABff") == bytes)
    }

    @Test("decimal digits: as few as it takes, or zero-padded to a width")
    func decimal() {
        var bytes: [UInt8] = []
        ASCIIDecimal.append(0, to: &bytes)
        ASCIIDecimal.append(UInt64.max, to: &bytes)
        ASCIIDecimal.append(7, width: 3, to: &bytes)
        ASCIIDecimal.append(2026, width: 2, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "0\(UInt64.max)00726")
    }

    @Test("a JSON string is escaped exactly as JSONEncoder escapes it")
    func jsonString() throws {
        let text = "a\"b\\c/d\u{08}\u{0C}\n\r\t\u{01}\u{1F}é😀"
        var bytes: [UInt8] = []
        JSONString.append(text, to: &bytes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        #expect(bytes == Array(try encoder.encode(text)))
    }

    @Test(
        "RFC 3339 times are read in every form a client may rightly send",
        arguments: [
            ("2026-12-31T19:00:00Z", 1_798_743_600.0), ("2026-12-31t19:00:00z", 1_798_743_600),
            ("2026-12-31T19:00:00.5Z", 1_798_743_600.5), ("2026-12-31T21:00:00+02:00", 1_798_743_600),
            ("2026-12-31T19:00:60Z", 1_798_743_659.999),
        ])
    func rfc3339Reads(_ text: String, _ seconds: Double) throws {
        let date = try #require(RFC3339.date(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.0005)
    }

    @Test(
        "RFC 3339 refuses what is not a date-time, or names a day that does not exist",
        arguments: [
            "", "2026-12-31", "2026-02-30T00:00:00Z", "2026-12-31T19:00:00", "2026-12-31T19:00:00.Z",
            "2026-12-31T24:00:00Z", "2026-12-31 19:00:00Z", "２０２６-12-31T19:00:00Z", "1900-02-29T00:00:00Z",
            "2023-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z",
        ])
    func rfc3339Refuses(_ text: String) {
        #expect(RFC3339.date(text) == nil)
    }

    @Test("RFC 3339 days agree with Foundation's Gregorian calendar, leap years included, from 1601 to 2400")
    func rfc3339Days() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let formatter = Date.ISO8601FormatStyle()
        var day = try #require(calendar.date(from: DateComponents(year: 1601, month: 1, day: 1)))
        let end = try #require(calendar.date(from: DateComponents(year: 2400, month: 12, day: 31)))
        while day <= end {
            let text = formatter.format(day)
            #expect(RFC3339.date(text) == day, "\(text)")
            day += 86_400 * 7 + 3_661  // every weekday and time of day in turn
        }
        #expect(RFC3339.date("2000-02-29T00:00:00Z") != nil && RFC3339.date("2024-02-29T12:00:00Z") != nil)
        #expect(RFC3339.date("2026-12-24T20:00+01:00", secondsOptional: true) == RFC3339.date("2026-12-24T19:00:00Z"))
        #expect(RFC3339.date("2026-12-24T20:00+01:00") == nil, "seconds are required unless asked otherwise")
    }

    @Test("RFC 3339 with milliseconds is written in UTC, rounded down, and reads back")
    func rfc3339Writes() throws {
        let date = Date(timeIntervalSince1970: 1_798_743_600.1239)
        let text = RFC3339.milliseconds(date)
        #expect(text == "2026-12-31T19:00:00.123Z")
        let back = try #require(RFC3339.date(text))
        #expect(back <= date && date.timeIntervalSince(back) < 0.001)
    }
}
