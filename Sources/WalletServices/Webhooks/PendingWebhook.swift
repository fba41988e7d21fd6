import Foundation
import WalletPasses

/// One webhook delivery in the outbox: an event, signed when it is sent, for one endpoint.
public struct PendingWebhook: Sendable, Hashable, Identifiable {
    /// The outbox row.
    public var id: UUID
    /// The pass the event is about.
    public var passID: UUID
    /// The endpoint it goes to.
    public var endpointID: UUID
    /// The endpoint's URL.
    public var url: String
    /// The event's identifier (`evt_…`), the same in every attempt: receivers de-duplicate by it.
    public var eventID: String
    /// The event's type.
    public var eventType: WebhookEventType
    /// The JSON body.
    public var payload: Data
    /// How many times sending it failed before.
    public var attempts: Int
    /// When it was queued: it is sent for a day at most.
    public var createdAt: Date
    /// Until when this claim holds its lease.
    public var leasedUntil: Date

    /// The payload as a delivery given up keeps it: what the event carried only for the issuer (`data.details`, the
    /// values a user entered when personalizing) reduced to its keys, since it is never sent again.
    public var keptPayload: Data {
        guard case .object(var body)? = try? JSONValue(parsing: payload), case .object(var data)? = body["data"],
            case .object(let details)? = data["details"]
        else { return payload }
        data["details"] = .array(details.keys.sorted().map(JSONValue.string))
        body["data"] = .object(data)
        return JSONValue.object(body).serialized()
    }

    /// Creates a pending delivery.
    public init(
        id: UUID, passID: UUID, endpointID: UUID, url: String, eventID: String, eventType: WebhookEventType,
        payload: Data, attempts: Int, createdAt: Date, leasedUntil: Date
    ) {
        self.id = id
        self.passID = passID
        self.endpointID = endpointID
        self.url = url
        self.eventID = eventID
        self.eventType = eventType
        self.payload = payload
        self.attempts = attempts
        self.createdAt = createdAt
        self.leasedUntil = leasedUntil
    }
}
