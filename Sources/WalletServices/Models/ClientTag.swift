import Foundation

/// A client's tag (a ticket, a membership) for one user; it may have an Apple pass.
public struct ClientTag: Codable, Hashable, Sendable, Identifiable {
    /// The tag's identifier.
    public var id: UUID
    /// The client it belongs to.
    public var clientID: UUID
    /// The user it belongs to.
    public var userID: UUID
    /// The client's reference, unique within the client.
    public var referenceID: String?
    /// Pronto's tag identifier, unique within the client.
    public var prontoTagID: String?
    /// A subscription identifier, unique within the client.
    public var subscriptionID: String?
    /// When it was created.
    public var createdAt: Date

    /// Creates a tag.
    public init(
        id: UUID = UUID(), clientID: UUID, userID: UUID, referenceID: String? = nil, prontoTagID: String? = nil,
        subscriptionID: String? = nil, createdAt: Date = Date()
    ) {
        self.id = id
        self.clientID = clientID
        self.userID = userID
        self.referenceID = referenceID
        self.prontoTagID = prontoTagID
        self.subscriptionID = subscriptionID
        self.createdAt = createdAt
    }
}
