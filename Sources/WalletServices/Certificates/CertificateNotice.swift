import Foundation
import WalletDocuments

/// A `pass_type.certificate_expiring` webhook: a pass type's certificate has crossed one of ``thresholds``, the
/// days before its end at which the clients it is shared with hear of it, each once.
package struct CertificateNotice: Hashable, Sendable {
    /// The days before a certificate's end at which a notice goes out.
    package static let thresholds = [30, 14, 7, 1]

    /// The pass type.
    package let passType: PassType
    /// When its signing ends (the certificate's `notAfter`).
    package let certificateEnd: Date
    /// The threshold crossed: the fewest days of ``thresholds`` that are still at least the time left.
    package let thresholdDays: Int
    /// When the notice is made.
    package let now: Date

    /// The notice `expiry` calls for, or `nil` when it is further than 30 days from its end or already past it.
    package init?(passType: PassType, expiry: CertificateExpiry) {
        let left = expiry.notValidAfter.timeIntervalSince(expiry.now)
        guard left >= 0, let threshold = Self.thresholds.filter({ left <= Double($0) * 86_400 }).min() else {
            return nil
        }
        self.passType = passType
        certificateEnd = expiry.notValidAfter
        thresholdDays = threshold
        now = expiry.now
    }

    /// The webhook's `data`.
    package var data: [String: JSONValue] {
        let expiry = CertificateExpiry(notValidAfter: certificateEnd, now: now)
        return [
            "pass_type": .object([
                "id": .string(passType.id.uuidString), "pass_type_identifier": .string(passType.passTypeIdentifier),
                "team_identifier": .string(passType.teamIdentifier),
            ]),
            "certificate": .object([
                "expires_at": .string(PassTrace.time(certificateEnd)), "days_left": .number(Double(expiry.daysLeft)),
                "threshold_days": .number(Double(thresholdDays)),
            ]),
        ]
    }
}
