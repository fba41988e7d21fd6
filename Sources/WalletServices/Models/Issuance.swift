import Foundation

/// What one issuance writes: the binding data recorded on the pass and the provisioning session it opens.
package struct Issuance: Hashable, Sendable {
    /// The pass the issuer data was signed for.
    package var passID: UUID
    /// The binding data as recorded (``StoredPass/accountBindingData``), without the session identifier.
    package var accountBindingData: Data
    /// When it was issued (the pass's new ``StoredPass/updatedAt``).
    package var issuedAt: Date
    /// The session it opens.
    package var session: ProvisioningSession

    /// Creates an issuance.
    package init(passID: UUID, accountBindingData: Data, issuedAt: Date, session: ProvisioningSession) {
        self.passID = passID
        self.accountBindingData = accountBindingData
        self.issuedAt = issuedAt
        self.session = session
    }
}
