import Foundation

/// Where webhook endpoints are kept (the `webhook_endpoints` table); their deliveries wait in the ``DeliveryOutbox``.
/// ``WalletRepository`` includes it.
package protocol WebhookEndpointStore: Sendable {
    /// Stores `endpoint` unless its client has `maximum` endpoints; returns whether it did.
    func createWebhookEndpoint(_ endpoint: WebhookEndpoint, maximum: Int) async throws -> Bool
    /// The client's endpoints, oldest first.
    func webhookEndpoints(clientID: UUID) async throws -> [WebhookEndpoint]
    /// Deletes the client's endpoint `id` and its deliveries still waiting; returns whether there was one.
    func deleteWebhookEndpoint(id: UUID, clientID: UUID) async throws -> Bool
    /// The deliveries of the pass's client's endpoints kept as failed, newest first.
    func failedWebhookDeliveries(passID: UUID, limit: Int) async throws -> [PendingWebhook]
}
