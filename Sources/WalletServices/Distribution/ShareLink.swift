import Foundation

/// A share link as stored: the SHA-256 of its token (never the token), the pass it serves, the client that made it,
/// when it stops working, and whether it serves the pass once only.
public struct ShareLink: Hashable, Sendable, Identifiable {
    /// The link's identifier, for listing and revoking it (not a secret).
    public var id: UUID
    /// SHA-256 of the link's token (``SecretToken/hash(_:)``).
    public var tokenHash: Data
    /// The pass it serves.
    public var passID: UUID
    /// The client whose API user made it.
    public var clientID: UUID
    /// Whether it serves the pass once: the first download spends it.
    public var singleUse: Bool
    /// When it was made.
    public var createdAt: Date
    /// When it stops working.
    public var expiresAt: Date
    /// When it last served the pass, if it did.
    public var usedAt: Date?

    /// Creates a share link record.
    public init(
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
    public func works(at now: Date) -> Bool {
        expiresAt > now && !(singleUse && usedAt != nil)
    }
}
