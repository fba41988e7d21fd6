import Foundation
import WalletDocuments

/// The contents of a pass's `pass.json`, as Apple's pass format defines it.
///
/// The style (boarding pass, coupon, event ticket, generic, store card) is ``style``, and its fields are
/// ``fields``; they are written under the style's key. Every key Apple documents through iOS 27 has a typed property,
/// down to the semantic tags and upcoming events; every key is kept as read (``json``), so decoding and encoding a
/// pass loses nothing, keys of a later iOS included. Call ``lint(files:)`` for what Wallet would reject or ignore
/// (``PassPackage`` refuses errors before signing).
public struct Pass: WebServiceDocument {
    /// The five pass styles: exactly one is a pass's key.
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

    /// Every key of `pass.json`, as read or set.
    public var json: [String: JSONValue]

    /// Wraps a `pass.json` object as it is; a pass with no style key reads as ``Style/generic``.
    ///
    /// A bare string under `issuerBindingData`, which older Coffer versions wrote, becomes the dictionary PassKit
    /// reads.
    public init(json: [String: JSONValue]) {
        self.json = json
        if case .string = json["issuerBindingData"], let binding = issuerBindingData {
            issuerBindingData = binding
        }
    }

    /// Creates a pass with the required keys.
    public init(
        passTypeIdentifier: String, teamIdentifier: String, serialNumber: String, organizationName: String,
        description: String, style: Style, fields: PassFields = PassFields()
    ) {
        self.init(json: [:])
        self.formatVersion = 1
        self.passTypeIdentifier = passTypeIdentifier
        self.teamIdentifier = teamIdentifier
        self.serialNumber = serialNumber
        self.organizationName = organizationName
        self.description = description
        self.json[style.rawValue] = fields.documentJSON
    }

    /// Decodes `pass.json`; exactly one style key must be present.
    public init(from decoder: any Decoder) throws {
        let object = try decoder.singleValueContainer().decode([String: JSONValue].self)
        try Self.checkStyle(of: object, codingPath: decoder.codingPath)
        self.init(json: object)
    }

    /// Throws unless `object` has exactly one style key, holding a dictionary.
    private static func checkStyle(of object: [String: JSONValue], codingPath: [any CodingKey]) throws {
        let styles = Style.allCases.filter { object[$0.rawValue] != nil }
        guard styles.count == 1 else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath,
                    debugDescription: "pass.json needs exactly one style key (boardingPass, coupon, eventTicket, "
                        + "generic or storeCard); found \(styles.count)"))
        }
        guard case .object = object[styles[0].rawValue] else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath, debugDescription: "'\(styles[0].rawValue)' must be a dictionary of fields"))
        }
    }

    // MARK: Standard keys

    /// The format version; always 1.
    public var formatVersion: Int {
        get { self["formatVersion", default: 0] }
        set { self["formatVersion", default: 0] = newValue }
    }
    /// The pass type identifier, e.g. `pass.com.example.ticket`.
    public var passTypeIdentifier: String {
        get { self["passTypeIdentifier", default: ""] }
        set { self["passTypeIdentifier", default: ""] = newValue }
    }
    /// The Apple Developer team identifier.
    public var teamIdentifier: String {
        get { self["teamIdentifier", default: ""] }
        set { self["teamIdentifier", default: ""] = newValue }
    }
    /// The serial number, unique within the pass type.
    public var serialNumber: String {
        get { self["serialNumber", default: ""] }
        set { self["serialNumber", default: ""] = newValue }
    }
    /// The organization's name, shown on the lock screen.
    public var organizationName: String {
        get { self["organizationName", default: ""] }
        set { self["organizationName", default: ""] = newValue }
    }
    /// A description for accessibility.
    public var description: String {
        get { self["description", default: ""] }
        set { self["description", default: ""] = newValue }
    }

    // MARK: Style

    /// The pass's style: the style key it has. Setting it moves the fields under the new key.
    public var style: Style {
        get { Style.allCases.first { json[$0.rawValue] != nil } ?? .generic }
        set {
            let fields = json.removeValue(forKey: style.rawValue) ?? .object([:])
            for other in Style.allCases { json[other.rawValue] = nil }
            json[newValue.rawValue] = fields
        }
    }
    /// The fields of the style.
    public var fields: PassFields {
        get { self[style.rawValue] ?? PassFields() }
        set { json[style.rawValue] = newValue.documentJSON }
    }
    /// The fields of the poster generic layout (iOS 27), shown instead of ``fields`` where Wallet can; the pass keeps
    /// a `generic` style for older iOS.
    public var posterGeneric: PassFields? {
        get { self["posterGeneric"] }
        set { self["posterGeneric"] = newValue }
    }
    /// The richer layouts Wallet should try first, in order (`posterEventTicket`, `semanticBoardingPass`); Wallet
    /// falls back to the style when the pass does not meet a scheme's requirements.
    public var preferredStyleSchemes: [String]? {
        get { self["preferredStyleSchemes"] }
        set { self["preferredStyleSchemes"] = newValue }
    }

    // MARK: Visual appearance

    /// Barcodes; the device shows the first one it supports.
    public var barcodes: [PassBarcode]? {
        get { self["barcodes"] }
        set { self["barcodes"] = newValue }
    }
    /// The single barcode of iOS 8 and earlier; deprecated for ``barcodes``.
    public var barcode: PassBarcode? {
        get { self["barcode"] }
        set { self["barcode"] = newValue }
    }
    /// The background color.
    public var backgroundColor: PassColor? {
        get { self["backgroundColor"] }
        set { self["backgroundColor"] = newValue }
    }
    /// The value text color.
    public var foregroundColor: PassColor? {
        get { self["foregroundColor"] }
        set { self["foregroundColor"] = newValue }
    }
    /// The label text color.
    public var labelColor: PassColor? {
        get { self["labelColor"] }
        set { self["labelColor"] = newValue }
    }
    /// The color of the strip behind the primary fields.
    public var stripColor: PassColor? {
        get { self["stripColor"] }
        set { self["stripColor"] = newValue }
    }
    /// The footer's background color (poster event tickets).
    public var footerBackgroundColor: PassColor? {
        get { self["footerBackgroundColor"] }
        set { self["footerBackgroundColor"] = newValue }
    }
    /// Whether Wallet derives the text colors from the background image (poster event tickets).
    public var useAutomaticColors: Bool? {
        get { self["useAutomaticColors"] }
        set { self["useAutomaticColors"] = newValue }
    }
    /// Whether Wallet leaves out the darkening gradient behind the header (poster event tickets).
    public var suppressHeaderDarkening: Bool? {
        get { self["suppressHeaderDarkening"] }
        set { self["suppressHeaderDarkening"] = newValue }
    }
    /// The text next to the logo (all but poster event tickets).
    public var logoText: String? {
        get { self["logoText"] }
        set { self["logoText"] = newValue }
    }
    /// The text next to the logo of a poster event ticket.
    public var eventLogoText: String? {
        get { self["eventLogoText"] }
        set { self["eventLogoText"] = newValue }
    }
    /// An SF Symbol Wallet shows as the logo.
    public var logoSymbolName: String? {
        get { self["logoSymbolName"] }
        set { self["logoSymbolName"] = newValue }
    }
    /// Groups event tickets and boarding passes in Wallet.
    public var groupingIdentifier: String? {
        get { self["groupingIdentifier"] }
        set { self["groupingIdentifier"] = newValue }
    }
    /// Removes the shine of the strip image (iOS 6 only).
    public var suppressStripShine: Bool? {
        get { self["suppressStripShine"] }
        set { self["suppressStripShine"] = newValue }
    }
    /// The actions Wallet features on the pass, at most two.
    public var featuredActions: [PassAction]? {
        get { self["featuredActions"] }
        set { self["featuredActions"] = newValue }
    }

    // MARK: Relevance

    /// Places where the pass is relevant (at most 10).
    public var locations: [PassLocation]? {
        get { self["locations"] }
        set { self["locations"] = newValue }
    }
    /// Beacons near which the pass is relevant (at most 10).
    public var beacons: [PassBeacon]? {
        get { self["beacons"] }
        set { self["beacons"] = newValue }
    }
    /// The largest distance from a location, in meters, at which the pass is relevant.
    public var maxDistance: Double? {
        get { self["maxDistance"] }
        set { self["maxDistance"] = newValue }
    }
    /// When the pass is relevant; deprecated since iOS 18 for ``relevantDates``.
    public var relevantDate: Date? {
        get { self["relevantDate"] }
        set { self["relevantDate"] = newValue }
    }
    /// When the pass is relevant (iOS 18): moments or intervals of at most a day each.
    public var relevantDates: [PassRelevantDate]? {
        get { self["relevantDates"] }
        set { self["relevantDates"] = newValue }
    }
    /// The events the pass covers after the current one (iOS 26).
    public var upcomingPassInformation: [PassUpcomingEntry]? {
        get { self["upcomingPassInformation"] }
        set { self["upcomingPassInformation"] = newValue }
    }

    // MARK: Expiration

    /// When the pass expires.
    public var expirationDate: Date? {
        get { self["expirationDate"] }
        set { self["expirationDate"] = newValue }
    }
    /// Whether the pass is void.
    public var voided: Bool? {
        get { self["voided"] }
        set { self["voided"] = newValue }
    }

    // MARK: Associated apps and companion data

    /// App Store identifiers of apps associated with the pass.
    public var associatedStoreIdentifiers: [Int]? {
        get { self["associatedStoreIdentifiers"] }
        set { self["associatedStoreIdentifiers"] = newValue }
    }
    /// App Store identifiers of further apps, shown in a poster event ticket's event guide.
    public var auxiliaryStoreIdentifiers: [Int]? {
        get { self["auxiliaryStoreIdentifiers"] }
        set { self["auxiliaryStoreIdentifiers"] = newValue }
    }
    /// A URL passed to the associated app.
    public var appLaunchURL: String? {
        get { self["appLaunchURL"] }
        set { self["appLaunchURL"] = newValue }
    }
    /// Free-form data for the companion app.
    public var userInfo: JSONValue? {
        get { self["userInfo"] }
        set { self["userInfo"] = newValue }
    }

    // MARK: Semantics, NFC and sharing

    /// Machine-readable facts about the pass.
    public var semantics: PassSemantics? {
        get { self["semantics"] }
        set { self["semantics"] = newValue }
    }
    /// NFC data.
    public var nfc: PassNFC? {
        get { self["nfc"] }
        set { self["nfc"] = newValue }
    }
    /// Whether sharing the pass is disabled.
    public var sharingProhibited: Bool? {
        get { self["sharingProhibited"] }
        set { self["sharingProhibited"] = newValue }
    }

    // MARK: Account binding

    /// The FIDO profile of an account-bound pass.
    public var fidoProfile: FIDOProfile? {
        get { self["fidoProfile"] }
        set { self["fidoProfile"] = newValue }
    }
    /// The issuer binding data the device sent back, with an optional learn-more page: written as the dictionary
    /// PassKit reads.
    public var issuerBindingData: PassIssuerBindingData? {
        get { self["issuerBindingData"] }
        set { self["issuerBindingData"] = newValue }
    }

    /// The top-level keys Apple documents, and the account-binding keys.
    public static let schema = DocumentSchema(
        "pass", standardEntries + DocumentSchema.Entry.eventLinks + boardingLinkEntries)

    private static let standardEntries: [DocumentSchema.Entry] = [
        .init("formatVersion", .integer, required: true),
        .init("passTypeIdentifier", .string, required: true),
        .init("teamIdentifier", .string, required: true),
        .init("serialNumber", .string, required: true),
        .init("organizationName", .string, required: true),
        .init("description", .string, required: true),
        .init("boardingPass", .dictionary(PassFields.self)),
        .init("coupon", .dictionary(PassFields.self)),
        .init("eventTicket", .dictionary(PassFields.self)),
        .init("generic", .dictionary(PassFields.self)),
        .init("storeCard", .dictionary(PassFields.self)),
        .init("posterGeneric", .dictionary(PassFields.self), since: .iOS27),
        .init("preferredStyleSchemes", .array(.enumeration(StyleScheme.all)), since: .iOS18),
        .init("barcodes", .array(.dictionary(PassBarcode.self))),
        // Deprecated for 'barcodes' (iOS 9), and for 'relevantDates' (iOS 18) below: still what older iOS reads, so
        // lint warns only when the newer key is missing.
        .init("barcode", .dictionary(PassBarcode.self)),
        .init("backgroundColor", .color),
        .init("foregroundColor", .color),
        .init("labelColor", .color),
        // In Apple's pass builder, not on Apple's reference page: no release is known to have added it.
        .init("stripColor", .color),
        .init("footerBackgroundColor", .color, since: .iOS18),
        .init("useAutomaticColors", .boolean, since: .iOS18),
        .init("suppressHeaderDarkening", .boolean, since: .iOS18),
        .init("logoText", .string),
        .init("eventLogoText", .string, since: .iOS18),
        // In Apple's pass builder, not yet on Apple's reference page; iOS 27 is the builder's release.
        .init("logoSymbolName", .string, since: .iOS27),
        .init("groupingIdentifier", .string),
        .init("suppressStripShine", .boolean, deprecated: "Wallet has drawn no shine since iOS 7"),
        .init("featuredActions", .array(.dictionary(PassAction.self), maximumCount: 2), since: .iOS27),
        .init("locations", .array(.dictionary(PassLocation.self), maximumCount: maximumRelevanceEntries)),
        .init("beacons", .array(.dictionary(PassBeacon.self), maximumCount: maximumRelevanceEntries)),
        .init("maxDistance", .number),
        .init("relevantDate", .date),
        .init("relevantDates", .array(.dictionary(PassRelevantDate.self)), since: .iOS18),
        .init("upcomingPassInformation", .array(.dictionary(PassUpcomingEntry.self)), since: .iOS26),
        .init("expirationDate", .date),
        .init("voided", .boolean),
        .init("webServiceURL", .url(secure: true)),
        .init("authenticationToken", .string),
        .init("associatedStoreIdentifiers", .array(.integer)),
        .init("auxiliaryStoreIdentifiers", .array(.integer), since: .iOS18),
        .init("appLaunchURL", .url(secure: false)),
        .init("userInfo", .any),
        .init("semantics", .dictionary(PassSemantics.self)),
        .init("nfc", .dictionary(PassNFC.self)),
        .init("sharingProhibited", .boolean),
        .init("fidoProfile", .dictionary(FIDOProfile.self)),
        .init("issuerBindingData", .dictionary(PassIssuerBindingData.self)),
    ]
}

extension Pass {
    /// The layouts `preferredStyleSchemes` names.
    public enum StyleScheme {
        /// The poster event ticket (iOS 18): a full-bleed artwork, the event guide, the links.
        public static let posterEventTicket = "posterEventTicket"
        /// The semantic boarding pass (iOS 26): laid out from semantic tags, with live flight updates.
        public static let semanticBoardingPass = "semanticBoardingPass"
        /// Every scheme Apple documents: the two above, and the plain `eventTicket` and `boardingPass` as the last
        /// resort.
        public static let all = [
            posterEventTicket, Style.eventTicket.rawValue, semanticBoardingPass, Style.boardingPass.rawValue,
        ]
    }

    /// The `pass.json` bytes: keys sorted, pretty-printed, slashes unescaped.
    public func encoded() throws -> Data {
        JSONValue.object(json).serialized(pretty: true)
    }

    /// Parses `pass.json` bytes; exactly one style key must be present.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for text that is not JSON, not a dictionary, or without one style.
    public init(json data: Data) throws {
        guard case .object(let object) = try JSONValue(parsing: data) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "pass.json must be a dictionary"))
        }
        try Self.checkStyle(of: object, codingPath: [])
        self.init(json: object)
    }
}
