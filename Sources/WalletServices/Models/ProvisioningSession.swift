import Foundation

/// A provisioning session the server issued with issuer data; the device's callback must name one that exists,
/// has not expired, and has not been used.
package struct ProvisioningSession: Codable, Hashable, Sendable {
    /// The random session identifier sent as `sessionIdentifier`. The database stores only its SHA-256; a session
    /// read back carries the identifier it was looked up with.
    package var id: String
    /// The pass being provisioned.
    package var passID: UUID
    /// When it was issued.
    package var createdAt: Date
    /// When it stops being accepted.
    package var expiresAt: Date
    /// When a callback used it, if one did.
    package var usedAt: Date?

    /// Creates a session.
    package init(id: String, passID: UUID, createdAt: Date, expiresAt: Date, usedAt: Date? = nil) {
        self.id = id
        self.passID = passID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}
