import Foundation
import Secrets

/// A client's end user, whose passes are bound to their account through a stable, non-guessable hash.
public struct User: Codable, Hashable, Sendable, Identifiable {
    /// The user's identifier.
    public var id: UUID
    /// The client the user belongs to.
    public var clientID: UUID
    /// The client's own reference for the user (an e-mail address, a customer number), if any.
    public var externalReference: String?
    /// The account hash sent as `fidoProfile.accountHash`: random, stable, unrelated to any personal data.
    public var accountHash: String
    /// When it was created.
    public var createdAt: Date

    /// Creates a user with a fresh account hash.
    public init(
        id: UUID = UUID(), clientID: UUID, externalReference: String? = nil,
        accountHash: String = SecureRandom.hex(byteCount: 16), createdAt: Date = Date()
    ) {
        self.id = id
        self.clientID = clientID
        self.externalReference = externalReference
        self.accountHash = accountHash
        self.createdAt = createdAt
    }
}
