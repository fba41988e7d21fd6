import Foundation
import WalletDocuments

/// One webhook delivery in the outbox: an event, signed when it is sent, for one endpoint.
package struct PendingWebhook: Sendable, Hashable, Identifiable {
    /// The outbox row.
    package var id: UUID
    /// The pass the event is about; `nil` for an event about a pass type (`pass_type.certificate_expiring`).
    package var passID: UUID?
    /// The endpoint it goes to.
    package var endpointID: UUID
    /// The client the endpoint belongs to.
    package var clientID: UUID
    /// The endpoint's URL.
    package var url: String
    /// The event's identifier (`evt_…`), the same in every attempt: receivers de-duplicate by it.
    package var eventID: String
    /// The event's type.
    package var eventType: WebhookEventType
    /// The JSON body.
    package var payload: Data
    /// How many times sending it failed before.
    package var attempts: Int
    /// When it was queued: it is sent for a day at most.
    package var createdAt: Date
    /// Until when this claim holds its lease.
    package var leasedUntil: Date

    /// The payload as a delivery given up keeps it: what the event carried only for the issuer (`data.details`, the
    /// values a user entered when personalizing) reduced to its keys, since it is never sent again.
    package var keptPayload: Data {
        guard case .object(var body)? = try? JSONValue(parsing: payload), case .object(var data)? = body["data"],
            case .object(let details)? = data["details"]
        else { return payload }
        data["details"] = .array(details.keys.sorted().map(JSONValue.string))
        body["data"] = .object(data)
        return JSONValue.object(body).serialized()
    }

    /// Creates a pending delivery.
    package init(
        id: UUID, passID: UUID?, endpointID: UUID, clientID: UUID, url: String, eventID: String,
        eventType: WebhookEventType, payload: Data, attempts: Int, createdAt: Date, leasedUntil: Date
    ) {
        self.id = id
        self.passID = passID
        self.endpointID = endpointID
        self.clientID = clientID
        self.url = url
        self.eventID = eventID
        self.eventType = eventType
        self.payload = payload
        self.attempts = attempts
        self.createdAt = createdAt
        self.leasedUntil = leasedUntil
    }
}
