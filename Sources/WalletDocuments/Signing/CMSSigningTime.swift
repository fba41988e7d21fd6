import CofferSupport
import Foundation
import Secrets

/// The DER of a CMS signing-time value (RFC 5652 § 11.3): a UTCTime (`YYMMDDHHMMSSZ`) for years 1950 to 2049 and a
/// GeneralizedTime (`YYYYMMDDHHMMSSZ`) otherwise, to the nearest second, as swift-certificates encodes it.
struct CMSSigningTime: Equatable {
    /// The calendar fields in UTC.
    let year: Int
    let month: Int
    let day: Int
    let hours: Int
    let minutes: Int
    let seconds: Int

    /// The UTC calendar fields of `date`, rounded to the nearest second (swift-certificates rounds the same way).
    ///
    /// - Throws: ``WalletDocumentError/signingFailed(_:)`` for a date outside the years 0 to 9999, which neither
    ///   time type can hold.
    init(_ date: Date) throws(WalletDocumentError) {
        let interval = date.timeIntervalSince1970.rounded()
        // 253402300800 is 10000-01-01T00:00:00Z and -62167219200 is 0000-01-01T00:00:00Z.
        guard interval.isFinite, interval >= -62_167_219_200, interval < 253_402_300_800 else {
            throw .signingFailed("the signing time \(date) is outside the years 0 to 9999")
        }
        let timestamp = Int64(interval)
        let (days, secondOfDay) = timestamp.quotientAndRemainder(dividingBy: 86_400)
        let (wholeDays, daySeconds) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        // Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's civil_from_days).
        let shifted = wholeDays + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
        self.month = Int(month)
        day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        hours = Int(daySeconds / 3600)
        minutes = Int(daySeconds % 3600 / 60)
        seconds = Int(daySeconds % 60)
    }

    /// Whether the value is a UTCTime (years 1950 to 2049) rather than a GeneralizedTime.
    var isUTCTime: Bool { (1950..<2050).contains(year) }

    /// The length of the whole TLV: 15 for a UTCTime, 17 for a GeneralizedTime.
    var encodedCount: Int { Self.encodedCount(utcTime: isUTCTime) }

    /// The length of the TLV of either type.
    static func encodedCount(utcTime: Bool) -> Int { utcTime ? 15 : 17 }

    /// Writes the TLV (tag, length, digits, `Z`) at the start of `output`, which holds exactly ``encodedCount``
    /// bytes.
    func write(to output: UnsafeMutableRawBufferPointer) {
        var bytes: [UInt8] = isUTCTime ? [0x17, 13] : [0x18, 15]
        bytes.reserveCapacity(encodedCount)
        ASCIIDecimal.append(isUTCTime ? year % 100 : year, width: isUTCTime ? 2 : 4, to: &bytes)
        for part in [month, day, hours, minutes, seconds] {
            ASCIIDecimal.append(part, width: 2, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
        output.copyBytes(from: bytes)
    }
}
