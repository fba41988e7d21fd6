import Foundation

/// The kinds of Google Wallet passes: each a class (what passes of one kind share) and objects (one per holder),
/// in the `walletobjects` API ([reference](https://developers.google.com/wallet/reference/rest)).
public enum GoogleWalletType: String, CaseIterable, Codable, Hashable, Sendable {
    /// A generic pass.
    case generic
    /// An event ticket.
    case eventTicket
    /// A boarding pass for a flight.
    case flight
    /// A ticket for a train, bus, ferry or tram.
    case transit
    /// An offer (a coupon).
    case offer
    /// A loyalty card.
    case loyalty
    /// A gift card.
    case giftCard

    /// The name of its classes' resource and schema without the suffix: `eventTicket` → `eventTicketClass`.
    public var classResource: String { rawValue + "Class" }
    /// The name of its objects' resource: `eventTicketObject`.
    public var objectResource: String { rawValue + "Object" }
    /// The key of its classes in a save link's payload: `eventTicketClasses`.
    public var classesPayloadKey: String { rawValue + "Classes" }
    /// The key of its objects in a save link's payload: `eventTicketObjects`.
    public var objectsPayloadKey: String { rawValue + "Objects" }
    /// The schema names in Google's discovery document: `EventTicketClass`, `EventTicketObject`.
    public var schemaNames: (walletClass: String, walletObject: String) {
        let name = rawValue.prefix(1).uppercased() + rawValue.dropFirst()
        return (name + "Class", name + "Object")
    }
}
