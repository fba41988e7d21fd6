import Foundation

/// A Google Wallet object: one holder's pass, of a ``GoogleWalletClass``. Only the keys its ``type`` has are set;
/// absent ones are left out of its JSON.
public struct GoogleWalletObject: Encodable, Hashable, Sendable {
    /// Its kind (not part of its JSON: the resource it is sent to says it).
    public var type: GoogleWalletType
    /// `<issuer id>.<suffix>`.
    public var id: String
    /// Its class's identifier.
    public var classId: String
    /// `ACTIVE`, `INACTIVE`, `EXPIRED` or `COMPLETED`.
    public var state: String?
    /// The barcode.
    public var barcode: GoogleWallet.Barcode?
    /// The background, `#rrggbb` (generic, event tickets, flights, transit).
    public var hexBackgroundColor: String?
    /// The wide image across the pass.
    public var heroImage: GoogleWallet.Image?
    /// When it is valid.
    public var validTimeInterval: GoogleWallet.TimeInterval?
    /// Headers and bodies on its details (at most 10 are shown).
    public var textModulesData: [GoogleWallet.TextModule]?
    /// Links on its details.
    public var linksModuleData: GoogleWallet.LinksModule?
    /// Places that bring it to the holder's attention (at most 10).
    public var merchantLocations: [GoogleWallet.Location]?
    /// The top row (generic).
    public var cardTitle: GoogleWallet.LocalizedString?
    /// The title (generic).
    public var header: GoogleWallet.LocalizedString?
    /// The line above the title (generic).
    public var subheader: GoogleWallet.LocalizedString?
    /// The logo (generic).
    public var logo: GoogleWallet.Image?
    /// The seat (event tickets).
    public var seatInfo: GoogleWallet.EventSeat?
    /// The holder's name (event tickets).
    public var ticketHolderName: String?
    /// The passenger's name (flights).
    public var passengerName: String?
    /// The booking (flights; required there).
    public var reservationInfo: GoogleWallet.ReservationInfo?
    /// Boarding group and seat (flights).
    public var boardingAndSeatingInfo: GoogleWallet.BoardingAndSeatingInfo?
    /// `ONE_WAY` or `ROUND_TRIP` (transit).
    public var tripType: String?
    /// The journey (transit).
    public var ticketLeg: GoogleWallet.TicketLeg?
    /// The member's name (loyalty).
    public var accountName: String?
    /// The member's number (loyalty).
    public var accountId: String?
    /// The points (loyalty).
    public var loyaltyPoints: GoogleWallet.LoyaltyPoints?
    /// The card's number (gift cards; required there).
    public var cardNumber: String?
    /// The balance (gift cards).
    public var balance: GoogleWallet.Money?
    /// Messages on its details (Google shows 10).
    public var messages: [GoogleWallet.Message]?

    /// An object of `type` named `id`, of the class `classId`; set the rest as its kind requires.
    public init(type: GoogleWalletType, id: String, classId: String) {
        self.type = type
        self.id = id
        self.classId = classId
    }

    private enum CodingKeys: String, CodingKey {
        case id, classId, state, barcode, hexBackgroundColor, heroImage, validTimeInterval, textModulesData
        case linksModuleData, merchantLocations, cardTitle, header, subheader, logo, seatInfo, ticketHolderName
        case passengerName, reservationInfo, boardingAndSeatingInfo, tripType, ticketLeg, accountName, accountId
        case loyaltyPoints, cardNumber, balance, messages
    }
}
