import Foundation

/// The pass types as their identities' renewal and the certificate watch change them.
package protocol PassTypeIdentityStore: PassTypeStore {
    /// Writes `passType`'s organization name, learn-more page and identity paths, if the stored ones are still
    /// `previous`'s (no other change came first); returns whether it did.
    func updatePassType(_ passType: PassType, replacing previous: PassType) async throws -> Bool
    /// Queues `notice` to every endpoint that takes it, of the clients the pass type is shared with, unless a
    /// notice of its threshold for its certificate end was queued before (by any replica); returns whether it was
    /// new.
    func queueCertificateNotice(_ notice: CertificateNotice) async throws -> Bool
    /// Sets (or, with `nil`, clears) the pass type's Google Wallet issuer, and whether Google allowlisted it for
    /// `merchantLocations`; returns whether the pass type exists.
    func setGoogleIssuer(passTypeID: UUID, issuerID: String?, mayUseMerchantLocations: Bool) async throws -> Bool
    /// Forgets the notices of certificates that ended before `cutoff`.
    func deleteCertificateNotices(endingBefore cutoff: Date) async throws
}
