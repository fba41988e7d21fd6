import Foundation

/// What one issuance writes: the binding data recorded on the pass and the provisioning session it opens.
public struct Issuance: Hashable, Sendable {
    /// The pass the issuer data was signed for.
    public var passID: UUID
    /// The binding data as recorded (``ApplePass/accountBindingData``), without the session identifier.
    public var accountBindingData: Data
    /// When it was issued (the pass's new ``ApplePass/updatedAt``).
    public var issuedAt: Date
    /// The session it opens.
    public var session: ProvisioningSession

    /// Creates an issuance.
    public init(passID: UUID, accountBindingData: Data, issuedAt: Date, session: ProvisioningSession) {
        self.passID = passID
        self.accountBindingData = accountBindingData
        self.issuedAt = issuedAt
        self.session = session
    }
}
