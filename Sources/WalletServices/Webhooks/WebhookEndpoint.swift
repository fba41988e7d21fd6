import Foundation

/// Where a client's backend takes webhook events: an https URL, the event types it wants, and (in the secret store,
/// never in the database) the secret its deliveries are signed with.
package struct WebhookEndpoint: Hashable, Sendable, Identifiable {
    /// The endpoint's identifier.
    package var id: UUID
    /// The client it belongs to.
    package var clientID: UUID
    /// Where deliveries are posted.
    package var url: String
    /// The event types it takes.
    package var eventTypes: Set<WebhookEventType>
    /// When it was made.
    package var createdAt: Date

    /// Creates an endpoint record.
    package init(
        id: UUID = UUID(), clientID: UUID, url: String, eventTypes: Set<WebhookEventType>, createdAt: Date
    ) {
        self.id = id
        self.clientID = clientID
        self.url = url
        self.eventTypes = eventTypes
        self.createdAt = createdAt
    }

    /// Where the endpoint's signing secret is kept in the secret store.
    package var secretPath: String { Self.secretPath(id: id) }

    /// Where the signing secret of the endpoint `id` is kept in the secret store.
    package static func secretPath(id: UUID) -> String { "wallet/webhooks/\(id.uuidString.lowercased())" }
}
