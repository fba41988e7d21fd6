import Foundation
import WalletServices

/// A row of `webhook_endpoints`.
struct WebhookEndpointRow: TableRow {
    /// The table the rows are in.
    static let table = "webhook_endpoints"

    /// The columns of `webhook_endpoints`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case clientID = "client_id"
        case url
        case eventTypes = "event_types"
        case createdAt = "created_at"
    }

    /// The endpoint's identifier.
    var id: String
    /// The client it belongs to.
    var clientID: String
    /// Where deliveries go.
    var url: String
    /// The event types it takes, comma-separated, sorted.
    var eventTypes: String
    /// When it was made, in milliseconds.
    var createdAt: Int64

    /// The row that stores `endpoint`.
    init(_ endpoint: WebhookEndpoint) {
        id = endpoint.id.uuidString
        clientID = endpoint.clientID.uuidString
        url = endpoint.url
        eventTypes = endpoint.eventTypes.map(\.rawValue).sorted().joined(separator: ",")
        createdAt = SQLWalletRepository.ms(endpoint.createdAt)
    }

    /// The endpoint this row stores; an event type this server does not know means the record is corrupt.
    func model() throws -> WebhookEndpoint {
        var types: Set<WebhookEventType> = []
        for name in eventTypes.split(separator: ",") {
            guard let type = WebhookEventType(rawValue: String(name)) else {
                throw WalletServerError.corruptRecord("webhook endpoint \(id)'s event type '\(name)'")
            }
            types.insert(type)
        }
        return WebhookEndpoint(
            id: try Self.uuid(id, .id), clientID: try Self.uuid(clientID, .clientID), url: url, eventTypes: types,
            createdAt: SQLWalletRepository.date(createdAt))
    }
}
