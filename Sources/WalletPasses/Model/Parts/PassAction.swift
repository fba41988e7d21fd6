import WalletDocuments

/// An action Wallet features on a pass (an entry of `featuredActions`, iOS 27): a button that opens a link.
public struct PassAction: DocumentDictionary {
    /// What an action does, as Wallet labels and draws it.
    public enum Kind: String, Codable, Hashable, CaseIterable, DocumentJSONConvertible {
        /// The event's schedule.
        case viewSchedule
        /// A trailer.
        case watchTrailer
        /// Music of the event's artists.
        case listenToMusic
        /// A phone call.
        case call
        /// A place in Maps.
        case place
        /// Adding money to a balance.
        case addToBalance
        /// Ordering for pickup or delivery.
        case order
        /// A shop.
        case shop
        /// A membership's benefits, points or tiers.
        case membershipBenefits
        /// Booking an appointment.
        case bookAppointment
        /// Booking a car.
        case bookCar
        /// Booking a flight.
        case bookFlight
        /// Booking a stay.
        case bookStay
        /// Offers and rewards.
        case viewOffersRewards
    }

    /// Every key, as read or set.
    public var json: [String: JSONValue]

    /// Wraps an action dictionary as it is.
    public init(json: [String: JSONValue]) { self.json = json }

    /// Creates an action.
    public init(identifier: String, kind: Kind, url: String? = nil) {
        self.init(json: [:])
        self.identifier = identifier
        self.kind = kind
        self.url = url
    }

    /// Identifies the action among the pass's actions (required).
    public var identifier: String {
        get { self["identifier", default: ""] }
        set { self["identifier", default: ""] = newValue }
    }
    /// What the action does (required, JSON key `type`); `nil` when absent or one Coffer does not know.
    public var kind: Kind? {
        get { self["type"] }
        set { self["type"] = newValue }
    }
    /// The link the action opens.
    public var url: String? {
        get { self["url"] }
        set { self["url"] = newValue }
    }

    /// The keys of a featured action.
    public static let schema = DocumentSchema(
        "featured action",
        [
            .init("identifier", .string, required: true),
            .init("type", .enumeration(Kind.allCases.map(\.rawValue)), required: true),
            .init("url", .url(secure: false)),
        ])
}
