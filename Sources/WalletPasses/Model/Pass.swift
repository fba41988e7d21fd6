import Foundation

/// The contents of a pass's `pass.json`, as Apple's pass format defines it.
///
/// The style (boarding pass, coupon, event ticket, generic, store card) is ``style``, and its fields are
/// ``fields``; they are written under the style's key. Keys Coffer does not model are kept in
/// ``additionalKeys`` and written back unchanged, so reading and re-signing a pass loses nothing.
/// Call ``validate()`` (``PassPackage`` does it before signing) to catch mistakes Wallet would reject.
public struct Pass: Codable, Hashable, Sendable {
    /// The five pass styles.
    public enum Style: String, Codable, Hashable, Sendable, CaseIterable {
        /// A boarding pass (needs ``PassFields/transitType``).
        case boardingPass
        /// A coupon.
        case coupon
        /// An event ticket.
        case eventTicket
        /// A generic pass.
        case generic
        /// A store card.
        case storeCard
    }

    // Standard keys
    /// The format version; always 1.
    public var formatVersion: Int
    /// The pass type identifier, e.g. `pass.com.example.ticket`.
    public var passTypeIdentifier: String
    /// The Apple Developer team identifier.
    public var teamIdentifier: String
    /// The serial number, unique within the pass type.
    public var serialNumber: String
    /// The organization's name, shown on the lock screen.
    public var organizationName: String
    /// A description for accessibility.
    public var description: String

    // Style
    /// The pass's style.
    public var style: Style
    /// The fields of the style.
    public var fields: PassFields

    // Visual appearance
    /// Barcodes, the first one the device supports is shown.
    public var barcodes: [PassBarcode]?
    /// The legacy single barcode (iOS 8 and earlier).
    public var barcode: PassBarcode?
    /// The background color.
    public var backgroundColor: PassColor?
    /// The value text color.
    public var foregroundColor: PassColor?
    /// The label text color.
    public var labelColor: PassColor?
    /// The text next to the logo.
    public var logoText: String?
    /// Groups event tickets and boarding passes in Wallet.
    public var groupingIdentifier: String?
    /// Removes the shine of the strip image.
    public var suppressStripShine: Bool?

    // Relevance
    /// Places where the pass is relevant (at most 10).
    public var locations: [PassLocation]?
    /// Beacons near which the pass is relevant (at most 10).
    public var beacons: [PassBeacon]?
    /// The largest distance from a location, in meters, at which the pass is relevant.
    public var maxDistance: Double?
    /// When the pass is relevant.
    public var relevantDate: Date?
    /// When the pass is relevant (iOS 18): dates or intervals.
    public var relevantDates: [PassRelevantDate]?

    // Expiration
    /// When the pass expires.
    public var expirationDate: Date?
    /// Whether the pass is void.
    public var voided: Bool?

    // Web service
    /// The URL of the web service that updates the pass (HTTPS).
    public var webServiceURL: String?
    /// The token the device presents to the web service (at least 16 characters).
    public var authenticationToken: String?

    // Associated app and companion data
    /// App Store identifiers of apps associated with the pass.
    public var associatedStoreIdentifiers: [Int]?
    /// A URL passed to the associated app.
    public var appLaunchURL: String?
    /// Free-form data for the companion app.
    public var userInfo: JSONValue?

    // NFC and sharing
    /// NFC data.
    public var nfc: PassNFC?
    /// Whether sharing the pass is disabled.
    public var sharingProhibited: Bool?

    // Account binding
    /// The FIDO profile of an account-bound pass.
    public var fidoProfile: FIDOProfile?
    /// The issuer binding data the device sent back, with an optional learn-more page: written as the dictionary
    /// PassKit reads.
    public var issuerBindingData: PassIssuerBindingData?

    /// Keys of `pass.json` that this model does not name, kept as they were.
    public var additionalKeys: [String: JSONValue]

    /// Creates a pass with the required keys.
    public init(
        passTypeIdentifier: String, teamIdentifier: String, serialNumber: String, organizationName: String,
        description: String, style: Style, fields: PassFields = PassFields()
    ) {
        self.formatVersion = 1
        self.passTypeIdentifier = passTypeIdentifier
        self.teamIdentifier = teamIdentifier
        self.serialNumber = serialNumber
        self.organizationName = organizationName
        self.description = description
        self.style = style
        self.fields = fields
        self.additionalKeys = [:]
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case formatVersion, passTypeIdentifier, teamIdentifier, serialNumber, organizationName, description
        case barcodes, barcode, backgroundColor, foregroundColor, labelColor, logoText, groupingIdentifier
        case suppressStripShine, locations, beacons, maxDistance, relevantDate, relevantDates, expirationDate, voided
        case webServiceURL, authenticationToken, associatedStoreIdentifiers, appLaunchURL, userInfo, nfc
        case sharingProhibited, fidoProfile, issuerBindingData
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes `pass.json`; exactly one style key must be present.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let everything = try decoder.container(keyedBy: AnyKey.self)
        let styles = Style.allCases.filter { everything.contains(AnyKey($0.rawValue)) }
        guard styles.count == 1, let style = styles.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "pass.json needs exactly one style key (boardingPass, coupon, eventTicket, "
                        + "generic or storeCard); found \(styles.count)"))
        }
        self.style = style
        self.fields = try everything.decode(PassFields.self, forKey: AnyKey(style.rawValue))
        formatVersion = try container.decode(Int.self, forKey: .formatVersion)
        passTypeIdentifier = try container.decode(String.self, forKey: .passTypeIdentifier)
        teamIdentifier = try container.decode(String.self, forKey: .teamIdentifier)
        serialNumber = try container.decode(String.self, forKey: .serialNumber)
        organizationName = try container.decode(String.self, forKey: .organizationName)
        description = try container.decode(String.self, forKey: .description)
        barcodes = try container.decodeIfPresent([PassBarcode].self, forKey: .barcodes)
        barcode = try container.decodeIfPresent(PassBarcode.self, forKey: .barcode)
        backgroundColor = try container.decodeIfPresent(PassColor.self, forKey: .backgroundColor)
        foregroundColor = try container.decodeIfPresent(PassColor.self, forKey: .foregroundColor)
        labelColor = try container.decodeIfPresent(PassColor.self, forKey: .labelColor)
        logoText = try container.decodeIfPresent(String.self, forKey: .logoText)
        groupingIdentifier = try container.decodeIfPresent(String.self, forKey: .groupingIdentifier)
        suppressStripShine = try container.decodeIfPresent(Bool.self, forKey: .suppressStripShine)
        locations = try container.decodeIfPresent([PassLocation].self, forKey: .locations)
        beacons = try container.decodeIfPresent([PassBeacon].self, forKey: .beacons)
        maxDistance = try container.decodeIfPresent(Double.self, forKey: .maxDistance)
        relevantDate = try container.decodeIfPresent(Date.self, forKey: .relevantDate)
        relevantDates = try container.decodeIfPresent([PassRelevantDate].self, forKey: .relevantDates)
        expirationDate = try container.decodeIfPresent(Date.self, forKey: .expirationDate)
        voided = try container.decodeIfPresent(Bool.self, forKey: .voided)
        webServiceURL = try container.decodeIfPresent(String.self, forKey: .webServiceURL)
        authenticationToken = try container.decodeIfPresent(String.self, forKey: .authenticationToken)
        associatedStoreIdentifiers = try container.decodeIfPresent([Int].self, forKey: .associatedStoreIdentifiers)
        appLaunchURL = try container.decodeIfPresent(String.self, forKey: .appLaunchURL)
        userInfo = try container.decodeIfPresent(JSONValue.self, forKey: .userInfo)
        nfc = try container.decodeIfPresent(PassNFC.self, forKey: .nfc)
        sharingProhibited = try container.decodeIfPresent(Bool.self, forKey: .sharingProhibited)
        fidoProfile = try container.decodeIfPresent(FIDOProfile.self, forKey: .fidoProfile)
        issuerBindingData = try container.decodeIfPresent(PassIssuerBindingData.self, forKey: .issuerBindingData)
        let known = Set(CodingKeys.allCases.map(\.rawValue) + Style.allCases.map(\.rawValue))
        var additional: [String: JSONValue] = [:]
        for key in everything.allKeys where !known.contains(key.stringValue) {
            additional[key.stringValue] = try everything.decode(JSONValue.self, forKey: key)
        }
        additionalKeys = additional
    }

    /// Encodes `pass.json`, the fields under the style's key.
    public func encode(to encoder: any Encoder) throws {
        var everything = encoder.container(keyedBy: AnyKey.self)
        for (key, value) in additionalKeys {
            try everything.encode(value, forKey: AnyKey(key))
        }
        try everything.encode(fields, forKey: AnyKey(style.rawValue))
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(formatVersion, forKey: .formatVersion)
        try container.encode(passTypeIdentifier, forKey: .passTypeIdentifier)
        try container.encode(teamIdentifier, forKey: .teamIdentifier)
        try container.encode(serialNumber, forKey: .serialNumber)
        try container.encode(organizationName, forKey: .organizationName)
        try container.encode(description, forKey: .description)
        try container.encodeIfPresent(barcodes, forKey: .barcodes)
        try container.encodeIfPresent(barcode, forKey: .barcode)
        try container.encodeIfPresent(backgroundColor, forKey: .backgroundColor)
        try container.encodeIfPresent(foregroundColor, forKey: .foregroundColor)
        try container.encodeIfPresent(labelColor, forKey: .labelColor)
        try container.encodeIfPresent(logoText, forKey: .logoText)
        try container.encodeIfPresent(groupingIdentifier, forKey: .groupingIdentifier)
        try container.encodeIfPresent(suppressStripShine, forKey: .suppressStripShine)
        try container.encodeIfPresent(locations, forKey: .locations)
        try container.encodeIfPresent(beacons, forKey: .beacons)
        try container.encodeIfPresent(maxDistance, forKey: .maxDistance)
        try container.encodeIfPresent(relevantDate, forKey: .relevantDate)
        try container.encodeIfPresent(relevantDates, forKey: .relevantDates)
        try container.encodeIfPresent(expirationDate, forKey: .expirationDate)
        try container.encodeIfPresent(voided, forKey: .voided)
        try container.encodeIfPresent(webServiceURL, forKey: .webServiceURL)
        try container.encodeIfPresent(authenticationToken, forKey: .authenticationToken)
        try container.encodeIfPresent(associatedStoreIdentifiers, forKey: .associatedStoreIdentifiers)
        try container.encodeIfPresent(appLaunchURL, forKey: .appLaunchURL)
        try container.encodeIfPresent(userInfo, forKey: .userInfo)
        try container.encodeIfPresent(nfc, forKey: .nfc)
        try container.encodeIfPresent(sharingProhibited, forKey: .sharingProhibited)
        try container.encodeIfPresent(fidoProfile, forKey: .fidoProfile)
        try container.encodeIfPresent(issuerBindingData, forKey: .issuerBindingData)
    }
}

extension Pass {
    /// The JSON encoder for `pass.json`: ISO 8601 dates, sorted keys, unescaped slashes.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            // W3C/ISO 8601 in UTC; fractional seconds only when the date has them, so dates round-trip exactly.
            var container = encoder.singleValueContainer()
            try container.encode(W3CDate.string(from: date))
        }
        return encoder
    }

    /// The JSON decoder for `pass.json`: ISO 8601 dates with or without fractional seconds.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = W3CDate.date(from: text) { return date }
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not an ISO 8601 date"))
        }
        return decoder
    }

    /// The `pass.json` bytes.
    public func encoded() throws -> Data {
        try Self.makeEncoder().encode(self)
    }

    /// Parses `pass.json` bytes.
    public init(json: Data) throws {
        self = try Self.makeDecoder().decode(Pass.self, from: json)
    }
}
