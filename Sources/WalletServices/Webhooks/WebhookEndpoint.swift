import Foundation

/// Where a client's backend takes webhook events: an https URL, the event types it wants, and (in the secret store,
/// never in the database) the secret its deliveries are signed with.
public struct WebhookEndpoint: Hashable, Sendable, Identifiable {
    /// The endpoint's identifier.
    public var id: UUID
    /// The client it belongs to.
    public var clientID: UUID
    /// Where deliveries are posted.
    public var url: String
    /// The event types it takes.
    public var eventTypes: Set<WebhookEventType>
    /// When it was made.
    public var createdAt: Date

    /// Creates an endpoint record.
    public init(
        id: UUID = UUID(), clientID: UUID, url: String, eventTypes: Set<WebhookEventType>, createdAt: Date
    ) {
        self.id = id
        self.clientID = clientID
        self.url = url
        self.eventTypes = eventTypes
        self.createdAt = createdAt
    }

    /// Where the endpoint's signing secret is kept in the secret store.
    public var secretPath: String { Self.secretPath(id: id) }

    /// Where the signing secret of the endpoint `id` is kept in the secret store.
    public static func secretPath(id: UUID) -> String { "wallet/webhooks/\(id.uuidString.lowercased())" }
}
