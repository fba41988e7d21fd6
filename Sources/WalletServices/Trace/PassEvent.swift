import Foundation
import WalletDocuments
import WalletPasses

/// One thing that happened to a pass, as its trace keeps it: when, what, which device (as a keyed hash), and the
/// details that tell one occurrence from another.
public struct PassEvent: Hashable, Sendable, Identifiable {
    /// What happened.
    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        /// The pass was made (the management API, `coffer admin`) or issuer data was signed for it.
        case issued
        /// A device bound the pass to its key (the provisioning callback).
        case bound
        /// The user entered their details (rewards enrollment); the details' keys, never their values.
        case personalized
        /// Its content changed: which fields, whether each has a `changeMessage`, its dates, its voiding.
        case changed
        /// A device registered for its updates.
        case registered
        /// A device unregistered.
        case unregistered
        /// Pushes were queued for its devices after a change.
        case pushQueued = "push_queued"
        /// APNs accepted a push to a device.
        case pushSent = "push_sent"
        /// APNs refused a push, or said the device's token is no longer valid: the push is dropped.
        case pushRefused = "push_refused"
        /// A push failed and is sent again later, or was given up after its last attempt.
        case pushFailed = "push_failed"
        /// A device's update check listed the pass as changed.
        case listed
        /// A device fetched the pass (200) or was told it has the latest (304).
        case fetched
        /// The pass was downloaded through a share link or by the issuer's backend.
        case downloaded
        /// A device's log named the pass.
        case deviceLog = "device_log"
        /// A webhook about the pass was given up after a day of retries: it is kept as failed.
        case webhookFailed = "webhook_failed"
        /// Its Google Wallet object was written (the object and class identifiers, whether its content changed,
        /// how many messages were added and how many of them notified).
        case googleWritten = "google_written"
        /// Writing its Google Wallet object failed: it is written again later, or was given up (`abandoned`).
        case googleFailed = "google_failed"
        /// Google said a holder saved its object to Google Wallet.
        case googleSaved = "google_saved"
        /// Google said a holder removed its object from Google Wallet.
        case googleRemoved = "google_removed"
        /// The pass got a new authentication token (a share link revoked with `rotate_token`): its devices'
        /// registrations and its share links ended.
        case tokenRotated = "token_rotated"
    }

    /// The event's place in the trace: larger is later.
    public var id: Int64
    /// The pass.
    public var passID: UUID
    /// When it happened.
    public var occurredAt: Date
    /// What happened.
    public var kind: Kind
    /// The device it concerns, as ``PassEventRecorder/deviceDigest(_:)`` (never the identifier), if any.
    public var device: String?
    /// The details (see each kind).
    public var details: [String: JSONValue]

    /// Creates an event.
    public init(
        id: Int64, passID: UUID, occurredAt: Date, kind: Kind, device: String? = nil,
        details: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.passID = passID
        self.occurredAt = occurredAt
        self.kind = kind
        self.device = device
        self.details = details
    }
}

/// What a trace is about: a pass, or an order (whose events are kept, read and delivered the same way).
package enum TraceSubject: Hashable, Sendable {
    /// A pass: ``NewPassEvent/passID`` is an `apple_passes` row.
    case pass
    /// An order: ``NewPassEvent/passID`` is an `orders` row.
    case order
}

/// An event to record: a ``PassEvent`` before the trace gives it its place.
package struct NewPassEvent: Hashable, Sendable {
    /// The pass (or the order, when ``subject`` says so).
    package var passID: UUID
    /// Whether the event is about a pass or an order.
    package var subject: TraceSubject
    /// When it happened.
    package var occurredAt: Date
    /// What happened.
    package var kind: PassEvent.Kind
    /// The device, as a keyed hash.
    package var device: String?
    /// The details.
    package var details: [String: JSONValue]
    /// What the event's webhook carries beside ``details`` and the trace does not keep (the details a user entered).
    package var webhookDetails: [String: JSONValue]

    /// Creates an event to record.
    package init(
        passID: UUID, subject: TraceSubject = .pass, occurredAt: Date, kind: PassEvent.Kind, device: String? = nil,
        details: [String: JSONValue] = [:], webhookDetails: [String: JSONValue] = [:]
    ) {
        self.passID = passID
        self.subject = subject
        self.occurredAt = occurredAt
        self.kind = kind
        self.device = device
        self.details = details
        self.webhookDetails = webhookDetails
    }

    /// The webhook event type the event is delivered as, if it is one an issuer's backend is told about.
    package var webhookType: WebhookEventType? {
        if subject == .order {
            switch kind {
            case .changed: return .orderUpdated
            case .registered where details["first_device"] == .bool(true): return .orderAdded
            case .unregistered where details["last_device"] == .bool(true): return .orderRemoved
            case .pushRefused: return .pushFailed
            case .pushFailed where details["abandoned"] == .bool(true): return .pushFailed
            default: return nil
            }
        }
        return switch kind {
        case .bound: .passBound
        case .personalized: .passPersonalized
        case .changed: .passUpdated
        case .registered where details["first_device"] == .bool(true): .passAdded
        case .unregistered where details["last_device"] == .bool(true): .passRemoved
        case .googleSaved: .passAdded
        case .googleRemoved: .passRemoved
        case .pushRefused: .pushFailed
        case .pushFailed where details["abandoned"] == .bool(true): .pushFailed
        default: nil
        }
    }
}
