import Foundation

/// A Google Wallet class: what every pass of one kind shares (its issuer, its event, its flight, its program).
/// Only the keys its ``type`` has are set; absent ones are left out of its JSON.
public struct GoogleWalletClass: Encodable, Hashable, Sendable {
    /// Its kind (not part of its JSON: the resource it is sent to says it).
    public var type: GoogleWalletType
    /// `<issuer id>.<suffix>`.
    public var id: String
    /// The issuer's name (every kind but generic).
    public var issuerName: String?
    /// `UNDER_REVIEW` for a new class (every kind but generic).
    public var reviewStatus: String?
    /// The background, `#rrggbb` (every kind but generic, whose objects have one).
    public var hexBackgroundColor: String?
    /// The logo (event tickets and transit).
    public var logo: GoogleWallet.Image?
    /// The event's name (event tickets).
    public var eventName: GoogleWallet.LocalizedString?
    /// The venue (event tickets).
    public var venue: GoogleWallet.EventVenue?
    /// When the event is (event tickets).
    public var dateTime: GoogleWallet.EventDateTime?
    /// The airline and flight number (flights).
    public var flightHeader: GoogleWallet.FlightHeader?
    /// Where the flight leaves (flights).
    public var origin: GoogleWallet.AirportInfo?
    /// Where it lands (flights).
    public var destination: GoogleWallet.AirportInfo?
    /// When it leaves, local time without an offset (flights).
    public var localScheduledDepartureDateTime: String?
    /// `RAIL`, `BUS`, `FERRY`, `TRAM` or `OTHER` (transit).
    public var transitType: String?
    /// The offer's title (offers).
    public var title: String?
    /// Who makes the offer (offers).
    public var provider: String?
    /// `INSTORE`, `ONLINE` or `BOTH` (offers).
    public var redemptionChannel: String?
    /// The offer's image (offers).
    public var titleImage: GoogleWallet.Image?
    /// The program's name (loyalty).
    public var programName: String?
    /// The program's logo (loyalty, gift cards).
    public var programLogo: GoogleWallet.Image?
    /// The merchant's name (gift cards).
    public var merchantName: String?
    /// Where Google posts saves and deletions of its objects.
    public var callbackOptions: GoogleWallet.CallbackOptions?
    /// Messages every holder of the class's objects sees (at most 10).
    public var messages: [GoogleWallet.Message]?

    /// A class of `type` named `id`; set the rest as its kind requires.
    public init(type: GoogleWalletType, id: String) {
        self.type = type
        self.id = id
    }

    private enum CodingKeys: String, CodingKey {
        case id, issuerName, reviewStatus, hexBackgroundColor, logo, eventName, venue, dateTime, flightHeader, origin
        case destination, localScheduledDepartureDateTime, transitType, title, provider, redemptionChannel
        case titleImage, programName, programLogo, merchantName, callbackOptions, messages
    }
}
