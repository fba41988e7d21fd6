import Foundation

/// A share link as stored: the SHA-256 of its token (never the token), the pass it serves, the client that made it,
/// when it stops working, and whether it serves the pass once only.
package struct ShareLink: Hashable, Sendable, Identifiable {
    /// The link's identifier, for listing and revoking it (not a secret).
    package var id: UUID
    /// SHA-256 of the link's token (``SecretToken/hash(_:)``).
    package var tokenHash: Data
    /// The pass it serves.
    package var passID: UUID
    /// The client whose API user made it.
    package var clientID: UUID
    /// Whether it serves the pass once: the first download spends it.
    package var singleUse: Bool
    /// When it was made.
    package var createdAt: Date
    /// When it stops working.
    package var expiresAt: Date
    /// When it last served the pass, if it did.
    package var usedAt: Date?

    /// Creates a share link record.
    package init(
        id: UUID = UUID(), tokenHash: Data, passID: UUID, clientID: UUID, singleUse: Bool, createdAt: Date,
        expiresAt: Date, usedAt: Date? = nil
    ) {
        self.id = id
        self.tokenHash = tokenHash
        self.passID = passID
        self.clientID = clientID
        self.singleUse = singleUse
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }

    /// Whether it still serves the pass at `now`: not expired, and not a single-use link that was used.
    package func works(at now: Date) -> Bool {
        expiresAt > now && !(singleUse && usedAt != nil)
    }
}
