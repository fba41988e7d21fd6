import Foundation
import WalletDocuments

/// Machine-readable facts about a pass (`semantics`): what Wallet uses to offer the pass at the right moment, to
/// suggest actions, and to lay out poster event tickets and semantic boarding passes.
///
/// Every tag Apple documents has a typed property; tags a later iOS adds stay in ``json`` untouched.
public struct PassSemantics: DocumentDictionary {
    /// The kinds of pass a tag is meant for.
    public enum Scope: Sendable {
        /// Event tickets.
        case eventTicket
        /// Boarding passes.
        case boardingPass
        /// Store cards.
        case storeCard
        /// Any pass.
        case anyPass
    }

    /// Every key, as read or set.
    public var json: [String: JSONValue]

    /// Wraps a semantics dictionary as it is.
    public init(json: [String: JSONValue]) { self.json = json }

    /// Creates an empty semantics dictionary.
    public init() { self.init(json: [:]) }

    // MARK: Event tickets
    /// The full name of the event, such as a film's title.
    public var eventName: String? {
        get { self["eventName"] }
        set { self["eventName"] = newValue }
    }
    /// The kind of event.
    public var eventType: EventType? {
        get { self["eventType"] }
        set { self["eventType"] = newValue }
    }
    /// When the event starts.
    public var eventStartDate: Date? {
        get { self["eventStartDate"] }
        set { self["eventStartDate"] = newValue }
    }
    /// When the event starts, with how to show it (time zone, unannounced, undetermined).
    public var eventStartDateInfo: EventDateInfo? {
        get { self["eventStartDateInfo"] }
        set { self["eventStartDateInfo"] = newValue }
    }
    /// When the event ends.
    public var eventEndDate: Date? {
        get { self["eventEndDate"] }
        set { self["eventEndDate"] = newValue }
    }
    /// The name of the person the ticket admits.
    public var attendeeName: String? {
        get { self["attendeeName"] }
        set { self["attendeeName"] = newValue }
    }
    /// The level of admission, such as General Admission or VIP.
    public var admissionLevel: String? {
        get { self["admissionLevel"] }
        set { self["admissionLevel"] = newValue }
    }
    /// The level of admission abbreviated, such as GA.
    public var admissionLevelAbbreviation: String? {
        get { self["admissionLevelAbbreviation"] }
        set { self["admissionLevelAbbreviation"] = newValue }
    }
    /// Ticket attributes no other key holds.
    public var additionalTicketAttributes: String? {
        get { self["additionalTicketAttributes"] }
        set { self["additionalTicketAttributes"] = newValue }
    }
    /// How to get in, at length.
    public var entranceDescription: String? {
        get { self["entranceDescription"] }
        set { self["entranceDescription"] = newValue }
    }
    /// Whether tailgating is allowed at the event.
    public var tailgatingAllowed: Bool? {
        get { self["tailgatingAllowed"] }
        set { self["tailgatingAllowed"] = newValue }
    }
    /// The genre of the performance, such as Classical.
    public var genre: String? {
        get { self["genre"] }
        set { self["genre"] = newValue }
    }
    /// The performers and opening acts, most significant first.
    public var performerNames: [String]? {
        get { self["performerNames"] }
        set { self["performerNames"] = newValue }
    }
    /// Apple Music persistent identifiers of the performing artists, most significant first.
    public var artistIDs: [String]? {
        get { self["artistIDs"] }
        set { self["artistIDs"] = newValue }
    }
    /// Apple Music persistent identifiers of albums for the event, most significant first.
    public var albumIDs: [String]? {
        get { self["albumIDs"] }
        set { self["albumIDs"] = newValue }
    }
    /// Apple Music persistent identifiers of playlists for the event, most significant first.
    public var playlistIDs: [String]? {
        get { self["playlistIDs"] }
        set { self["playlistIDs"] = newValue }
    }
    /// The league's full name.
    public var leagueName: String? {
        get { self["leagueName"] }
        set { self["leagueName"] = newValue }
    }
    /// The league's abbreviation.
    public var leagueAbbreviation: String? {
        get { self["leagueAbbreviation"] }
        set { self["leagueAbbreviation"] = newValue }
    }
    /// The sport's common name.
    public var sportName: String? {
        get { self["sportName"] }
        set { self["sportName"] = newValue }
    }
    /// The home team's name.
    public var homeTeamName: String? {
        get { self["homeTeamName"] }
        set { self["homeTeamName"] = newValue }
    }
    /// The home team's home.
    public var homeTeamLocation: String? {
        get { self["homeTeamLocation"] }
        set { self["homeTeamLocation"] = newValue }
    }
    /// The home team's unique abbreviation.
    public var homeTeamAbbreviation: String? {
        get { self["homeTeamAbbreviation"] }
        set { self["homeTeamAbbreviation"] = newValue }
    }
    /// The away team's name.
    public var awayTeamName: String? {
        get { self["awayTeamName"] }
        set { self["awayTeamName"] = newValue }
    }
    /// The away team's home.
    public var awayTeamLocation: String? {
        get { self["awayTeamLocation"] }
        set { self["awayTeamLocation"] = newValue }
    }
    /// The away team's unique abbreviation.
    public var awayTeamAbbreviation: String? {
        get { self["awayTeamAbbreviation"] }
        set { self["awayTeamAbbreviation"] = newValue }
    }
    /// The venue's full name.
    public var venueName: String? {
        get { self["venueName"] }
        set { self["venueName"] = newValue }
    }
    /// Where the venue is.
    public var venueLocation: Location? {
        get { self["venueLocation"] }
        set { self["venueLocation"] = newValue }
    }
    /// The city or region of the venue.
    public var venueRegionName: String? {
        get { self["venueRegionName"] }
        set { self["venueRegionName"] = newValue }
    }
    /// The room where the event takes place.
    public var venueRoom: String? {
        get { self["venueRoom"] }
        set { self["venueRoom"] = newValue }
    }
    /// The venue's phone number for questions about the event.
    public var venuePhoneNumber: String? {
        get { self["venuePhoneNumber"] }
        set { self["venuePhoneNumber"] = newValue }
    }
    /// The entrance to use, such as Gate A.
    public var venueEntrance: String? {
        get { self["venueEntrance"] }
        set { self["venueEntrance"] = newValue }
    }
    /// The door to enter by.
    public var venueEntranceDoor: String? {
        get { self["venueEntranceDoor"] }
        set { self["venueEntranceDoor"] = newValue }
    }
    /// The gate to enter by.
    public var venueEntranceGate: String? {
        get { self["venueEntranceGate"] }
        set { self["venueEntranceGate"] = newValue }
    }
    /// The portal to enter by.
    public var venueEntrancePortal: String? {
        get { self["venueEntrancePortal"] }
        set { self["venueEntrancePortal"] = newValue }
    }
    /// When the venue opens, when no more specific date applies.
    public var venueOpenDate: Date? {
        get { self["venueOpenDate"] }
        set { self["venueOpenDate"] = newValue }
    }
    /// When the venue closes.
    public var venueCloseDate: Date? {
        get { self["venueCloseDate"] }
        set { self["venueCloseDate"] = newValue }
    }
    /// When the doors open.
    public var venueDoorsOpenDate: Date? {
        get { self["venueDoorsOpenDate"] }
        set { self["venueDoorsOpenDate"] = newValue }
    }
    /// When the gates open.
    public var venueGatesOpenDate: Date? {
        get { self["venueGatesOpenDate"] }
        set { self["venueGatesOpenDate"] = newValue }
    }
    /// When the box office opens.
    public var venueBoxOfficeOpenDate: Date? {
        get { self["venueBoxOfficeOpenDate"] }
        set { self["venueBoxOfficeOpenDate"] = newValue }
    }
    /// When the fan zone opens.
    public var venueFanZoneOpenDate: Date? {
        get { self["venueFanZoneOpenDate"] }
        set { self["venueFanZoneOpenDate"] = newValue }
    }
    /// When the parking lots open.
    public var venueParkingLotsOpenDate: Date? {
        get { self["venueParkingLotsOpenDate"] }
        set { self["venueParkingLotsOpenDate"] = newValue }
    }

    // MARK: Boarding passes
    /// The transit company's name.
    public var transitProvider: String? {
        get { self["transitProvider"] }
        set { self["transitProvider"] = newValue }
    }
    /// The boarding status, such as On Time or Delayed.
    public var transitStatus: String? {
        get { self["transitStatus"] }
        set { self["transitStatus"] = newValue }
    }
    /// Why the status is what it is, such as Thunderstorms.
    public var transitStatusReason: String? {
        get { self["transitStatusReason"] }
        set { self["transitStatusReason"] = newValue }
    }
    /// The vehicle's name, such as a ship's.
    public var vehicleName: String? {
        get { self["vehicleName"] }
        set { self["vehicleName"] = newValue }
    }
    /// The vehicle's identifier, such as an aircraft registration or a train number.
    public var vehicleNumber: String? {
        get { self["vehicleNumber"] }
        set { self["vehicleNumber"] = newValue }
    }
    /// The vehicle's type, such as an aircraft model.
    public var vehicleType: String? {
        get { self["vehicleType"] }
        set { self["vehicleType"] = newValue }
    }
    /// The number of the train car.
    public var carNumber: String? {
        get { self["carNumber"] }
        set { self["carNumber"] = newValue }
    }
    /// The booking or confirmation number.
    public var confirmationNumber: String? {
        get { self["confirmationNumber"] }
        set { self["confirmationNumber"] = newValue }
    }
    /// The boarding group.
    public var boardingGroup: String? {
        get { self["boardingGroup"] }
        set { self["boardingGroup"] = newValue }
    }
    /// The boarding sequence number.
    public var boardingSequenceNumber: String? {
        get { self["boardingSequenceNumber"] }
        set { self["boardingSequenceNumber"] = newValue }
    }
    /// The boarding zone, without the word zone.
    public var boardingZone: String? {
        get { self["boardingZone"] }
        set { self["boardingZone"] = newValue }
    }
    /// The passenger's priority status, such as Gold.
    public var priorityStatus: String? {
        get { self["priorityStatus"] }
        set { self["priorityStatus"] = newValue }
    }
    /// The passenger's kind of security screening, such as Priority.
    public var securityScreening: String? {
        get { self["securityScreening"] }
        set { self["securityScreening"] = newValue }
    }
    /// The fare class, such as Economy, shown as a badge.
    public var ticketFareClass: String? {
        get { self["ticketFareClass"] }
        set { self["ticketFareClass"] = newValue }
    }
    /// The frequent-traveller or loyalty program's name.
    public var membershipProgramName: String? {
        get { self["membershipProgramName"] }
        set { self["membershipProgramName"] = newValue }
    }
    /// The passenger's number in that program.
    public var membershipProgramNumber: String? {
        get { self["membershipProgramNumber"] }
        set { self["membershipProgramNumber"] = newValue }
    }
    /// The passenger's status in that program.
    public var membershipProgramStatus: String? {
        get { self["membershipProgramStatus"] }
        set { self["membershipProgramStatus"] = newValue }
    }
    /// The passenger's name.
    public var passengerName: PersonName? {
        get { self["passengerName"] }
        set { self["passengerName"] = newValue }
    }
    /// Airline capabilities the passenger has.
    public var passengerCapabilities: [String]? {
        get { self["passengerCapabilities"] }
        set { self["passengerCapabilities"] = newValue }
    }
    /// Security programs the passenger belongs to.
    public var passengerEligibleSecurityPrograms: [String]? {
        get { self["passengerEligibleSecurityPrograms"] }
        set { self["passengerEligibleSecurityPrograms"] = newValue }
    }
    /// IATA special service requests for the passenger.
    public var passengerServiceSSRs: [String]? {
        get { self["passengerServiceSSRs"] }
        set { self["passengerServiceSSRs"] = newValue }
    }
    /// IATA information special service requests for the passenger.
    public var passengerInformationSSRs: [String]? {
        get { self["passengerInformationSSRs"] }
        set { self["passengerInformationSSRs"] = newValue }
    }
    /// Airline-specific special service requests for the passenger.
    public var passengerAirlineSSRs: [String]? {
        get { self["passengerAirlineSSRs"] }
        set { self["passengerAirlineSSRs"] = newValue }
    }
    /// Whether the passenger's international documents are verified; Wallet then shows a badge.
    public var internationalDocumentsAreVerified: Bool? {
        get { self["internationalDocumentsAreVerified"] }
        set { self["internationalDocumentsAreVerified"] = newValue }
    }
    /// The badge text once documents are verified, such as DOCS OK.
    public var internationalDocumentsVerifiedDeclarationName: String? {
        get { self["internationalDocumentsVerifiedDeclarationName"] }
        set { self["internationalDocumentsVerifiedDeclarationName"] = newValue }
    }
    /// MapKit place identifiers of lounges the passenger may use.
    public var loungePlaceIDs: [String]? {
        get { self["loungePlaceIDs"] }
        set { self["loungePlaceIDs"] = newValue }
    }
    /// The IATA airline code, such as EX for flight EX123.
    public var airlineCode: String? {
        get { self["airlineCode"] }
        set { self["airlineCode"] = newValue }
    }
    /// The IATA flight code, such as EX123.
    public var flightCode: String? {
        get { self["flightCode"] }
        set { self["flightCode"] = newValue }
    }
    /// The flight code's number, such as 123.
    public var flightNumber: Int? {
        get { self["flightNumber"] }
        set { self["flightNumber"] = newValue }
    }
    /// When boarding was first scheduled.
    public var originalBoardingDate: Date? {
        get { self["originalBoardingDate"] }
        set { self["originalBoardingDate"] = newValue }
    }
    /// When departure was first scheduled.
    public var originalDepartureDate: Date? {
        get { self["originalDepartureDate"] }
        set { self["originalDepartureDate"] = newValue }
    }
    /// When arrival was first scheduled.
    public var originalArrivalDate: Date? {
        get { self["originalArrivalDate"] }
        set { self["originalArrivalDate"] = newValue }
    }
    /// When boarding now is, if it changed.
    public var currentBoardingDate: Date? {
        get { self["currentBoardingDate"] }
        set { self["currentBoardingDate"] = newValue }
    }
    /// When departure now is, if it changed.
    public var currentDepartureDate: Date? {
        get { self["currentDepartureDate"] }
        set { self["currentDepartureDate"] = newValue }
    }
    /// When arrival now is, if it changed.
    public var currentArrivalDate: Date? {
        get { self["currentArrivalDate"] }
        set { self["currentArrivalDate"] = newValue }
    }
    /// The IATA code of the departure airport, such as LHR.
    public var departureAirportCode: String? {
        get { self["departureAirportCode"] }
        set { self["departureAirportCode"] = newValue }
    }
    /// The departure airport's full name.
    public var departureAirportName: String? {
        get { self["departureAirportName"] }
        set { self["departureAirportName"] = newValue }
    }
    /// The departure city, as the pass shows it.
    public var departureCityName: String? {
        get { self["departureCityName"] }
        set { self["departureCityName"] = newValue }
    }
    /// The departure gate, without the word gate.
    public var departureGate: String? {
        get { self["departureGate"] }
        set { self["departureGate"] = newValue }
    }
    /// Where the journey departs, as precisely as possible.
    public var departureLocation: Location? {
        get { self["departureLocation"] }
        set { self["departureLocation"] = newValue }
    }
    /// The departure place in a few words, such as London, Heathrow.
    public var departureLocationDescription: String? {
        get { self["departureLocationDescription"] }
        set { self["departureLocationDescription"] = newValue }
    }
    /// Security programs at the departure airport.
    public var departureLocationSecurityPrograms: [String]? {
        get { self["departureLocationSecurityPrograms"] }
        set { self["departureLocationSecurityPrograms"] = newValue }
    }
    /// The departure place's time zone, such as Europe/London.
    public var departureLocationTimeZone: String? {
        get { self["departureLocationTimeZone"] }
        set { self["departureLocationTimeZone"] = newValue }
    }
    /// The departure platform, without the word platform.
    public var departurePlatform: String? {
        get { self["departurePlatform"] }
        set { self["departurePlatform"] = newValue }
    }
    /// The departure station's name.
    public var departureStationName: String? {
        get { self["departureStationName"] }
        set { self["departureStationName"] = newValue }
    }
    /// The departure terminal, without the word terminal.
    public var departureTerminal: String? {
        get { self["departureTerminal"] }
        set { self["departureTerminal"] = newValue }
    }
    /// The IATA code of the destination airport.
    public var destinationAirportCode: String? {
        get { self["destinationAirportCode"] }
        set { self["destinationAirportCode"] = newValue }
    }
    /// The destination airport's full name.
    public var destinationAirportName: String? {
        get { self["destinationAirportName"] }
        set { self["destinationAirportName"] = newValue }
    }
    /// The destination city, as the pass shows it.
    public var destinationCityName: String? {
        get { self["destinationCityName"] }
        set { self["destinationCityName"] = newValue }
    }
    /// The arrival gate, without the word gate.
    public var destinationGate: String? {
        get { self["destinationGate"] }
        set { self["destinationGate"] = newValue }
    }
    /// Where the journey ends.
    public var destinationLocation: Location? {
        get { self["destinationLocation"] }
        set { self["destinationLocation"] = newValue }
    }
    /// The destination in a few words.
    public var destinationLocationDescription: String? {
        get { self["destinationLocationDescription"] }
        set { self["destinationLocationDescription"] = newValue }
    }
    /// Security programs at the destination airport.
    public var destinationLocationSecurityPrograms: [String]? {
        get { self["destinationLocationSecurityPrograms"] }
        set { self["destinationLocationSecurityPrograms"] = newValue }
    }
    /// The destination's time zone.
    public var destinationLocationTimeZone: String? {
        get { self["destinationLocationTimeZone"] }
        set { self["destinationLocationTimeZone"] = newValue }
    }
    /// The arrival platform, without the word platform.
    public var destinationPlatform: String? {
        get { self["destinationPlatform"] }
        set { self["destinationPlatform"] = newValue }
    }
    /// The destination station's name.
    public var destinationStationName: String? {
        get { self["destinationStationName"] }
        set { self["destinationStationName"] = newValue }
    }
    /// The arrival terminal, without the word terminal.
    public var destinationTerminal: String? {
        get { self["destinationTerminal"] }
        set { self["destinationTerminal"] = newValue }
    }

    // MARK: Store cards
    /// The balance the card can be redeemed for.
    public var balance: CurrencyAmount? {
        get { self["balance"] }
        set { self["balance"] = newValue }
    }

    // MARK: Any pass
    /// The pass's total price.
    public var totalPrice: CurrencyAmount? {
        get { self["totalPrice"] }
        set { self["totalPrice"] = newValue }
    }
    /// How long the event or journey lasts, in seconds.
    public var duration: Int? {
        get { self["duration"] }
        set { self["duration"] = newValue }
    }
    /// The seats of the event or journey.
    public var seats: [Seat]? {
        get { self["seats"] }
        set { self["seats"] = newValue }
    }
    /// Whether the device should stay silent during the event or journey.
    public var silenceRequested: Bool? {
        get { self["silenceRequested"] }
        set { self["silenceRequested"] = newValue }
    }
    /// Wi-Fi networks of the event, with their passwords.
    public var wifiAccess: [WifiNetwork]? {
        get { self["wifiAccess"] }
        set { self["wifiAccess"] = newValue }
    }

    /// The kind of pass each tag is meant for.
    public static func scope(of tag: String) -> Scope? {
        if eventTicketTags.contains(tag) { return .eventTicket }
        if boardingPassTags.contains(tag) { return .boardingPass }
        if storeCardTags.contains(tag) { return .storeCard }
        return schema.entry(for: tag) == nil ? nil : .anyPass
    }

    private static let eventTicketTags: Set<String> = [
        "eventName", "eventType", "eventStartDate", "eventStartDateInfo", "eventEndDate", "attendeeName",
        "admissionLevel", "admissionLevelAbbreviation", "additionalTicketAttributes", "entranceDescription",
        "tailgatingAllowed", "genre", "performerNames", "artistIDs", "albumIDs", "playlistIDs", "leagueName",
        "leagueAbbreviation", "sportName", "homeTeamName", "homeTeamLocation", "homeTeamAbbreviation",
        "awayTeamName", "awayTeamLocation", "awayTeamAbbreviation", "venueName", "venueLocation", "venueRegionName",
        "venueRoom", "venuePhoneNumber", "venueEntrance", "venueEntranceDoor", "venueEntranceGate",
        "venueEntrancePortal", "venueOpenDate", "venueCloseDate", "venueDoorsOpenDate", "venueGatesOpenDate",
        "venueBoxOfficeOpenDate", "venueFanZoneOpenDate", "venueParkingLotsOpenDate",
    ]
    private static let boardingPassTags: Set<String> = [
        "transitProvider", "transitStatus", "transitStatusReason", "vehicleName", "vehicleNumber", "vehicleType",
        "carNumber", "confirmationNumber", "boardingGroup", "boardingSequenceNumber", "boardingZone",
        "priorityStatus", "securityScreening", "ticketFareClass", "membershipProgramName",
        "membershipProgramNumber", "membershipProgramStatus", "passengerName", "passengerCapabilities",
        "passengerEligibleSecurityPrograms", "passengerServiceSSRs", "passengerInformationSSRs",
        "passengerAirlineSSRs", "internationalDocumentsAreVerified",
        "internationalDocumentsVerifiedDeclarationName", "loungePlaceIDs", "airlineCode", "flightCode",
        "flightNumber", "originalBoardingDate", "originalDepartureDate", "originalArrivalDate",
        "currentBoardingDate", "currentDepartureDate", "currentArrivalDate", "departureAirportCode",
        "departureAirportName", "departureCityName", "departureGate", "departureLocation",
        "departureLocationDescription", "departureLocationSecurityPrograms", "departureLocationTimeZone",
        "departurePlatform", "departureStationName", "departureTerminal", "destinationAirportCode",
        "destinationAirportName", "destinationCityName", "destinationGate", "destinationLocation",
        "destinationLocationDescription", "destinationLocationSecurityPrograms", "destinationLocationTimeZone",
        "destinationPlatform", "destinationStationName", "destinationTerminal",
    ]
    private static let storeCardTags: Set<String> = ["balance"]

    /// The values of the security program tags (`PKTransitSecurityProgram…`).
    public static let securityPrograms = [
        "TSAPreCheck", "TSAPreCheckTouchlessID", "OSS", "ITI", "ITD", "GlobalEntry", "CLEAR",
    ].map { "PKTransitSecurityProgram" + $0 }
    /// The values of `passengerCapabilities` (`PKPassengerCapability…`).
    public static let passengerCapabilities = [
        "Preboarding", "PriorityBoarding", "Carryon", "PersonalItem", "LapInfant",
    ].map { "PKPassengerCapability" + $0 }

    /// The semantic tags Apple documents.
    public static let schema = DocumentSchema(
        "semantics",
        [
            .init("eventName", .string),
            .init("eventType", .enumeration(EventType.allCases.map(\.rawValue))),
            .init("eventStartDate", .date),
            .init("eventStartDateInfo", .dictionary(EventDateInfo.self), since: .iOS18),
            .init("eventEndDate", .date),
            .init("attendeeName", .string, since: .iOS18),
            .init("admissionLevel", .string, since: .iOS18),
            .init("admissionLevelAbbreviation", .string, since: .iOS18),
            .init("additionalTicketAttributes", .string, since: .iOS18),
            .init("entranceDescription", .string, since: .iOS18),
            .init("tailgatingAllowed", .boolean, since: .iOS18),
            .init("genre", .string),
            .init("performerNames", .array(.string)),
            .init("artistIDs", .array(.string)),
            .init("albumIDs", .array(.string), since: .iOS18),
            .init("playlistIDs", .array(.string), since: .iOS18),
            .init("leagueName", .string),
            .init("leagueAbbreviation", .string),
            .init("sportName", .string),
            .init("homeTeamName", .string),
            .init("homeTeamLocation", .string),
            .init("homeTeamAbbreviation", .string),
            .init("awayTeamName", .string),
            .init("awayTeamLocation", .string),
            .init("awayTeamAbbreviation", .string),
            .init("venueName", .string),
            .init("venueLocation", .dictionary(Location.self)),
            .init("venueRegionName", .string, since: .iOS18),
            .init("venueRoom", .string),
            .init("venuePhoneNumber", .string),
            .init("venueEntrance", .string),
            .init("venueEntranceDoor", .string, since: .iOS18),
            .init("venueEntranceGate", .string, since: .iOS18),
            .init("venueEntrancePortal", .string, since: .iOS18),
            .init("venueOpenDate", .date, since: .iOS18),
            .init("venueCloseDate", .date, since: .iOS18),
            .init("venueDoorsOpenDate", .date, since: .iOS18),
            .init("venueGatesOpenDate", .date, since: .iOS18),
            .init("venueBoxOfficeOpenDate", .date, since: .iOS18),
            .init("venueFanZoneOpenDate", .date, since: .iOS18),
            .init("venueParkingLotsOpenDate", .date, since: .iOS18),
            .init("transitProvider", .string),
            .init("transitStatus", .string),
            .init("transitStatusReason", .string),
            .init("vehicleName", .string),
            .init("vehicleNumber", .string),
            .init("vehicleType", .string),
            .init("carNumber", .string),
            .init("confirmationNumber", .string),
            .init("boardingGroup", .string),
            .init("boardingSequenceNumber", .string),
            .init("boardingZone", .string, since: .iOS26),
            .init("priorityStatus", .string),
            .init("securityScreening", .string),
            .init("ticketFareClass", .string, since: .iOS26),
            .init("membershipProgramName", .string),
            .init("membershipProgramNumber", .string),
            .init("membershipProgramStatus", .string, since: .iOS26),
            .init("passengerName", .dictionary(PersonName.self)),
            .init("passengerCapabilities", .array(.enumeration(passengerCapabilities)), since: .iOS26),
            .init("passengerEligibleSecurityPrograms", .array(.enumeration(securityPrograms)), since: .iOS26),
            .init("passengerServiceSSRs", .array(.string), since: .iOS26),
            .init("passengerInformationSSRs", .array(.string), since: .iOS26),
            .init("passengerAirlineSSRs", .array(.string), since: .iOS26),
            .init("internationalDocumentsAreVerified", .boolean, since: .iOS26),
            .init("internationalDocumentsVerifiedDeclarationName", .string, since: .iOS26),
            .init("loungePlaceIDs", .array(.string), since: .iOS26),
            .init("airlineCode", .string),
            .init("flightCode", .string),
            .init("flightNumber", .integer),
            .init("originalBoardingDate", .date),
            .init("originalDepartureDate", .date),
            .init("originalArrivalDate", .date),
            .init("currentBoardingDate", .date),
            .init("currentDepartureDate", .date),
            .init("currentArrivalDate", .date),
            .init("departureAirportCode", .string),
            .init("departureAirportName", .string),
            .init("departureCityName", .string, since: .iOS26),
            .init("departureGate", .string),
            .init("departureLocation", .dictionary(Location.self)),
            .init("departureLocationDescription", .string),
            .init("departureLocationSecurityPrograms", .array(.enumeration(securityPrograms)), since: .iOS26),
            .init("departureLocationTimeZone", .string, since: .iOS26),
            // The spelling Apple's pass builder checks; Apple's reference renamed it departureLocationTimeZone.
            .init("departureAirportTimeZone", .string, since: .iOS26),
            .init("departurePlatform", .string),
            .init("departureStationName", .string),
            .init("departureTerminal", .string),
            .init("destinationAirportCode", .string),
            .init("destinationAirportName", .string),
            .init("destinationCityName", .string, since: .iOS26),
            .init("destinationGate", .string),
            .init("destinationLocation", .dictionary(Location.self)),
            .init("destinationLocationDescription", .string),
            .init("destinationLocationSecurityPrograms", .array(.enumeration(securityPrograms)), since: .iOS26),
            .init("destinationLocationTimeZone", .string, since: .iOS26),
            // As departureAirportTimeZone.
            .init("destinationAirportTimeZone", .string, since: .iOS26),
            .init("destinationPlatform", .string),
            .init("destinationStationName", .string),
            .init("destinationTerminal", .string),
            .init("balance", .dictionary(CurrencyAmount.self)),
            .init("totalPrice", .dictionary(CurrencyAmount.self)),
            .init("duration", .integer),
            .init("seats", .array(.dictionary(Seat.self))),
            .init("silenceRequested", .boolean),
            .init("wifiAccess", .array(.dictionary(WifiNetwork.self))),
        ])
}
