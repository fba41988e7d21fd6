import Foundation
import WalletServices

/// A row of `push_outbox`: a push still to send to a device registered for a pass or an order, a webhook delivery
/// still to send to a client's endpoint, or a Google Wallet write.
struct DeliveryOutboxRow: TableRow {
    /// The table the rows are in.
    static let table = "push_outbox"

    /// The columns of `push_outbox`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case passID = "pass_id"
        case deviceLibraryIdentifier = "device_library_identifier"
        case attempts
        case nextAttemptAt = "next_attempt_at"
        case leasedUntil = "leased_until"
        case createdAt = "created_at"
        case kind
        case endpointID = "endpoint_id"
        case eventID = "event_id"
        case eventType = "event_type"
        case payload
        case sequence
        case failedAt = "failed_at"
        case lastError = "last_error"
        case passTypeID = "pass_type_id"
        case clientID = "client_id"
    }

    /// ``kind`` of a push to a device (rows older than webhooks have `nil`).
    static let pushKind = "apns"
    /// ``kind`` of a webhook delivery.
    static let webhookKind = "webhook"
    /// ``kind`` of a Google Wallet write.
    static let googleKind = "google"
    /// ``kind`` of a push to a device registered for an order (the order in ``passID``).
    static let orderPushKind = "order"

    /// The push's identifier.
    var id: String
    /// The pass that changed; `nil` for a webhook about a pass type.
    var passID: String?
    /// The device to tell.
    var deviceLibraryIdentifier: String
    /// How many times sending it was tried.
    var attempts: Int64
    /// When to try next, in milliseconds.
    var nextAttemptAt: Int64
    /// Until when a dispatcher holds it, in milliseconds; `nil` when none does.
    var leasedUntil: Int64?
    /// When it was queued, in milliseconds.
    var createdAt: Int64
    /// ``pushKind`` (or `nil`), ``orderPushKind``, ``webhookKind`` or ``googleKind``.
    var kind: String?
    /// A webhook's endpoint.
    var endpointID: String?
    /// A webhook's event identifier (`evt_…`).
    var eventID: String?
    /// A webhook's event type.
    var eventType: String?
    /// A webhook's JSON body.
    var payload: String?
    /// A webhook's place among its pass's deliveries to its endpoint (its trace event's identifier).
    var sequence: Int64?
    /// When a webhook was given up, in milliseconds: kept, no longer sent.
    var failedAt: Int64?
    /// Why a webhook's last attempt failed.
    var lastError: String?
    /// The pass type a webhook is about, when it is about a pass type rather than a pass.
    var passTypeID: String?
    /// The client of a Google Wallet write's pass: the lane it is claimed in with its pass type.
    var clientID: String?

    /// A new, unleased row of `kind` about the pass `passID` (and the pass type `passTypeID`), due at `now`.
    private init(kind: String, passID: String?, passTypeID: String?, deviceLibraryIdentifier: String, now: Date) {
        id = UUID().uuidString
        self.passID = passID
        self.passTypeID = passTypeID
        self.deviceLibraryIdentifier = deviceLibraryIdentifier
        attempts = 0
        nextAttemptAt = SQLWalletRepository.ms(now)
        leasedUntil = nil
        createdAt = SQLWalletRepository.ms(now)
        self.kind = kind
    }

    /// A new, unleased push of the pass `passID` to the device `deviceLibraryIdentifier`, due at `now`.
    init(passID: UUID, deviceLibraryIdentifier: String, now: Date) {
        self.init(
            kind: Self.pushKind, passID: passID.uuidString, passTypeID: nil,
            deviceLibraryIdentifier: deviceLibraryIdentifier, now: now)
    }

    /// A new, unleased push of the order `orderID` to the device `deviceLibraryIdentifier`, due at `now`.
    init(orderPushOf orderID: UUID, deviceLibraryIdentifier: String, now: Date) {
        self.init(
            kind: Self.orderPushKind, passID: orderID.uuidString, passTypeID: nil,
            deviceLibraryIdentifier: deviceLibraryIdentifier, now: now)
    }

    /// A new, unleased, first write of the Google Wallet object of the pass `passID` (of the pass type `passTypeID`
    /// and the client `clientID`), due at `now`.
    init(googleWriteOf passID: String, passTypeID: String, clientID: String, now: Date) {
        self.init(kind: Self.googleKind, passID: passID, passTypeID: passTypeID, deviceLibraryIdentifier: "", now: now)
        self.clientID = clientID
    }

    /// A new, unleased delivery of the event `eventID` about the pass `passID` (or, without one, the pass type
    /// `passTypeID`) to the endpoint `endpointID`, due at `now`, in the place `sequence` among the pass's deliveries
    /// to that endpoint.
    init(
        passID: UUID?, passTypeID: UUID? = nil, endpointID: UUID, eventID: String, eventType: WebhookEventType,
        payload: String, sequence: Int64, now: Date
    ) {
        self.init(
            kind: Self.webhookKind, passID: passID?.uuidString, passTypeID: passTypeID?.uuidString,
            deviceLibraryIdentifier: "", now: now)
        self.endpointID = endpointID.uuidString
        self.eventID = eventID
        self.eventType = eventType.rawValue
        self.payload = payload
        self.sequence = sequence
    }
}
