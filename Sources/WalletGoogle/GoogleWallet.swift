import Foundation

/// The values Google Wallet classes and objects are made of, as the `walletobjects` API's JSON names them.
public enum GoogleWallet {
    /// A text with its translations.
    public struct LocalizedString: Codable, Hashable, Sendable {
        /// One language's text.
        public struct Translation: Codable, Hashable, Sendable {
            /// The language (BCP 47: `en`, `de`, `zh-Hans`).
            public var language: String
            /// The text.
            public var value: String

            /// A text in `language`.
            public init(language: String, value: String) {
                self.language = language
                self.value = value
            }
        }

        /// The text where the device's language has none.
        public var defaultValue: Translation
        /// The other languages' texts.
        public var translatedValues: [Translation]?

        /// A text in `language` with `translations`.
        public init(_ value: String, language: String = "en", translations: [Translation]? = nil) {
            defaultValue = Translation(language: language, value: value)
            translatedValues = translations
        }
    }

    /// An image Google fetches from a public URL.
    public struct Image: Codable, Hashable, Sendable {
        /// Where the image is.
        public struct SourceURI: Codable, Hashable, Sendable {
            /// The image's URL.
            public var uri: String
        }

        /// Where the image is.
        public var sourceUri: SourceURI

        /// The image at `url`.
        public init(url: String) { sourceUri = SourceURI(uri: url) }
    }

    /// A barcode.
    public struct Barcode: Codable, Hashable, Sendable {
        /// `QR_CODE`, `PDF_417`, `AZTEC`, `CODE_128`, …
        public var type: String
        /// What the code encodes.
        public var value: String
        /// The text shown under it.
        public var alternateText: String?
    }

    /// A header and a body shown on the pass's details.
    public struct TextModule: Codable, Hashable, Sendable {
        /// Its identifier (letters, digits, `_`, `-`).
        public var id: String?
        /// The header.
        public var header: String?
        /// The body.
        public var body: String?
        /// The header in several languages.
        public var localizedHeader: LocalizedString?
        /// The body in several languages.
        public var localizedBody: LocalizedString?
    }

    /// A place, for location notifications.
    public struct Location: Codable, Hashable, Sendable {
        /// Degrees, −90 to 90.
        public var latitude: Double
        /// Degrees, −180 to 180.
        public var longitude: Double
    }

    /// An ISO 8601 date and time, with or without an offset.
    public struct DateTime: Codable, Hashable, Sendable {
        /// The date and time.
        public var date: String
    }

    /// When a pass is valid.
    public struct TimeInterval: Codable, Hashable, Sendable {
        /// The start, if any.
        public var start: DateTime?
        /// The end, if any.
        public var end: DateTime?
    }

    /// A link.
    public struct URI: Codable, Hashable, Sendable {
        /// The URL (with its scheme: https, tel, mailto, geo).
        public var uri: String
        /// Its title.
        public var description: String?
    }

    /// The links of a pass.
    public struct LinksModule: Codable, Hashable, Sendable {
        /// The links.
        public var uris: [URI]
    }

    /// An amount of money.
    public struct Money: Codable, Hashable, Sendable {
        /// ISO 4217.
        public var currencyCode: String
        /// Millionths of the currency's unit, as a string (an int64).
        public var micros: String
    }

    /// An event's venue.
    public struct EventVenue: Codable, Hashable, Sendable {
        /// Its name.
        public var name: LocalizedString
        /// Its address.
        public var address: LocalizedString
    }

    /// When an event happens.
    public struct EventDateTime: Codable, Hashable, Sendable {
        /// When doors open.
        public var doorsOpen: String?
        /// When it starts.
        public var start: String?
        /// When it ends.
        public var end: String?
    }

    /// A seat at an event.
    public struct EventSeat: Codable, Hashable, Sendable {
        /// The seat.
        public var seat: LocalizedString?
        /// The row.
        public var row: LocalizedString?
        /// The section.
        public var section: LocalizedString?
        /// The gate.
        public var gate: LocalizedString?
    }

    /// A flight's operator and number.
    public struct FlightHeader: Codable, Hashable, Sendable {
        /// The airline.
        public struct Carrier: Codable, Hashable, Sendable {
            /// Its two-character IATA code.
            public var carrierIataCode: String
        }

        /// The airline.
        public var carrier: Carrier
        /// The number, digits only.
        public var flightNumber: String
    }

    /// An airport of a flight.
    public struct AirportInfo: Codable, Hashable, Sendable {
        /// Its three-letter IATA code.
        public var airportIataCode: String
        /// The terminal.
        public var terminal: String?
        /// The gate.
        public var gate: String?
    }

    /// A flight booking.
    public struct ReservationInfo: Codable, Hashable, Sendable {
        /// The booking reference.
        public var confirmationCode: String?
    }

    /// Where a passenger boards and sits.
    public struct BoardingAndSeatingInfo: Codable, Hashable, Sendable {
        /// The boarding group.
        public var boardingGroup: String?
        /// The seat.
        public var seatNumber: String?
        /// The fare class.
        public var seatClass: String?
    }

    /// One leg of a transit trip.
    public struct TicketLeg: Codable, Hashable, Sendable {
        /// Where it starts.
        public var originName: LocalizedString?
        /// Where it ends.
        public var destinationName: LocalizedString?
        /// When it leaves (local ISO 8601).
        public var departureDateTime: String?
        /// When it arrives.
        public var arrivalDateTime: String?
        /// The platform.
        public var platform: String?
    }

    /// A balance of loyalty points.
    public struct LoyaltyPoints: Codable, Hashable, Sendable {
        /// The balance.
        public struct Balance: Codable, Hashable, Sendable {
            /// A text balance.
            public var string: String?
            /// A whole-number balance.
            public var int: Int?
            /// A fractional balance.
            public var double: Double?
            /// A money balance.
            public var money: Money?
        }

        /// The label.
        public var label: String?
        /// The balance.
        public var balance: Balance
    }

    /// Where Google posts a class's saves and deletions.
    public struct CallbackOptions: Codable, Hashable, Sendable {
        /// The https URL.
        public var url: String

        /// Callbacks to `url`.
        public init(url: String) { self.url = url }
    }

    /// A message on a pass's details; `TEXT_AND_NOTIFY` also notifies the holder (Google allows 3 a day per pass).
    public struct Message: Codable, Hashable, Sendable {
        /// Its identifier, unique among the pass's messages.
        public var id: String?
        /// The title.
        public var header: String?
        /// The text.
        public var body: String?
        /// `TEXT` or `TEXT_AND_NOTIFY`.
        public var messageType: String?

        /// A message with `header` and `body`, of `messageType`.
        public init(id: String? = nil, header: String?, body: String?, messageType: String? = "TEXT_AND_NOTIFY") {
            self.id = id
            self.header = header
            self.body = body
            self.messageType = messageType
        }
    }
}
