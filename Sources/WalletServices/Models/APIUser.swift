import Foundation

/// A credential for the API, belonging to a client. Only a SHA-256 hash of its token is stored; the token itself
/// is shown once, when the API user is created.
public struct APIUser: Codable, Hashable, Sendable, Identifiable {
    /// The API user's identifier.
    public var id: UUID
    /// The client whose data the token may reach.
    public var clientID: UUID
    /// A name for people ("iOS app", "staging").
    public var name: String
    /// SHA-256 of the token.
    public var tokenHash: Data
    /// When it was created.
    public var createdAt: Date
    /// When it was revoked (soft delete); a revoked token no longer authenticates.
    public var revokedAt: Date?

    /// Creates an API user record.
    public init(
        id: UUID = UUID(), clientID: UUID, name: String, tokenHash: Data, createdAt: Date = Date(),
        revokedAt: Date? = nil
    ) {
        self.id = id
        self.clientID = clientID
        self.name = name
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}
