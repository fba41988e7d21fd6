import CofferSupport
import Foundation

/// How soon a pass type's certificate runs out, said the same way by `/ready`, the daily check and
/// `coffer admin pass-type list`: expired, expiring within ``warningPeriod``, or neither.
///
/// An expired Pass Type ID certificate signs passes that Wallet refuses and authenticates no push, so the server
/// counts as not ready; one that expires soon is degraded, to be renewed before customers notice.
package struct CertificateExpiry: Hashable, Sendable {
    /// How long before its end a certificate counts as expiring: 30 days.
    package static let warningPeriod: TimeInterval = 30 * 86_400

    /// The certificate's last valid moment (`notAfter`).
    package let notValidAfter: Date
    /// The moment it is judged at.
    package let now: Date

    /// Judges a certificate valid until `notValidAfter` at `now`.
    package init(notValidAfter: Date, now: Date) {
        self.notValidAfter = notValidAfter
        self.now = now
    }

    /// Whether the certificate is past its end.
    package var isExpired: Bool { now > notValidAfter }

    /// Whether it ends within ``warningPeriod`` and has not yet.
    package var isExpiringSoon: Bool { !isExpired && notValidAfter.timeIntervalSince(now) <= Self.warningPeriod }

    /// Whole days until the end (0 on its last day), negative once it has passed.
    package var daysLeft: Int { Int((notValidAfter.timeIntervalSince(now) / 86_400).rounded(.down)) }

    /// The end as a date a person reads: `2026-12-07`.
    package var endDay: String { String(RFC3339.milliseconds(notValidAfter).prefix(10)) }

    /// The certificate's end in a list: "until 2027-11-27 (365 days)", "EXPIRES IN 9 DAYS (2026-12-07)" or
    /// "EXPIRED 2026-11-20", in capitals when there is something to do.
    package var summary: String {
        if isExpired { return "EXPIRED \(endDay)" }
        let left = daysLeft == 1 ? "1 day" : "\(daysLeft) days"
        return isExpiringSoon ? "EXPIRES IN \(left.uppercased()) (\(endDay))" : "until \(endDay) (\(left))"
    }

    /// What to tell an operator about `passTypeIdentifier`'s certificate, or `nil` when there is nothing to do yet.
    package func reason(passTypeIdentifier: String) -> String? {
        let renew =
            "make a new certificate in Apple's developer portal and import it with `coffer admin pass-type import`"
        if isExpired {
            return "pass type \(passTypeIdentifier): its certificate expired on \(endDay), so Wallet refuses its "
                + "passes and APNs its pushes; \(renew)"
        }
        guard isExpiringSoon else { return nil }
        let left = daysLeft == 1 ? "1 day" : "\(daysLeft) days"
        return "pass type \(passTypeIdentifier): its certificate expires in \(left) (on \(endDay)); \(renew)"
    }
}
