import Foundation

/// A pass issuer's customer: the owner of users, tags and API users. Every API request is scoped to one client.
public struct Client: Codable, Hashable, Sendable, Identifiable {
    /// The client's identifier.
    public var id: UUID
    /// The client's display name.
    public var name: String
    /// When it was created.
    public var createdAt: Date

    /// Creates a client.
    public init(id: UUID = UUID(), name: String, createdAt: Date = Date()) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }
}
