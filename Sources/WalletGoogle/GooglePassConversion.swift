import Crypto
import Foundation
import Secrets
import WalletDocuments
import WalletPasses

/// A pass made into a Google Wallet class and object, with what could not be carried over, in lint's form.
///
/// The kind follows Google's own converter: a boarding pass is a flight (by air) or transit, a coupon an offer,
/// an event ticket an event ticket, a store card a loyalty card, anything else generic. A kind whose required keys
/// the pass cannot fill (a flight without its airports, a loyalty card without a logo URL) becomes generic, with a
/// `google.fallback` warning. Fields become text modules; texts localized in the pass's `pass.strings` carry every
/// language; images need a public ``Options/imageBaseURL``.
public struct GooglePassConversion: Sendable {
    /// How to convert.
    public struct Options: Hashable, Sendable {
        /// The Google Wallet issuer's numeric identifier: the prefix of every class and object identifier.
        public var issuerID: String
        /// The public https URL under which the pass's images are served (`<url>/logo.png`), or `nil`.
        public var imageBaseURL: String?
        /// Whether images are named by their content (`<url>/<SHA-256 in hex>.png`) rather than by their file name,
        /// so that passes with the same images share one class.
        public var namesImagesByDigest: Bool
        /// The https URL Google posts saves and deletions of the class's objects to, or `nil`.
        public var callbackURL: String?
        /// The language of `pass.json`'s own texts.
        public var defaultLanguage: String
        /// Whether Google allows the issuer `merchantLocations` (it refuses them with 400 for an issuer it has not
        /// allowlisted); without it the pass's locations are dropped with a finding.
        public var mayUseMerchantLocations: Bool
        /// How many times the pass's object was replaced by a new one (its authentication token was rotated): each
        /// replacement has its own identifier.
        public var objectGeneration: Int
        /// What else keeps classes apart (a server's client), so that no one else's passes change what this scope's
        /// classes hold.
        public var classScope: String?

        /// Options for the issuer `issuerID`.
        public init(
            issuerID: String, imageBaseURL: String? = nil, namesImagesByDigest: Bool = false,
            callbackURL: String? = nil, defaultLanguage: String = "en", mayUseMerchantLocations: Bool = false,
            objectGeneration: Int = 0, classScope: String? = nil
        ) {
            self.classScope = classScope
            self.issuerID = issuerID
            self.imageBaseURL = imageBaseURL
            self.namesImagesByDigest = namesImagesByDigest
            self.callbackURL = callbackURL
            self.defaultLanguage = defaultLanguage
            self.mayUseMerchantLocations = mayUseMerchantLocations
            self.objectGeneration = max(0, objectGeneration)
        }
    }

    /// The class.
    public let walletClass: GoogleWalletClass
    /// The object.
    public let walletObject: GoogleWalletObject
    /// What the conversion dropped or changed, each with its path in `pass.json`.
    public let findings: [LintFinding]
    /// The pass's images the class and object refer to, by the name their URL ends with (under
    /// ``Options/imageBaseURL``): what must be served there for Google to fetch.
    public let images: [String: Data]

    /// The most text modules Google shows of an object.
    public static let maximumTextModules = 10
    /// The most locations Google keeps of an object.
    public static let maximumLocations = 10

    /// The part of the object's identifier after `<issuer id>.`: the pass type and serial number as they are when
    /// both hold only characters Google takes and are short, else what Google takes of them followed by 128 bits of
    /// the SHA-256 of exactly both (and of the generation, once the object was replaced), so that serials such as
    /// `A/1` and `A_1` never share an object.
    public static func objectSuffix(passTypeIdentifier: String, serialNumber: String, generation: Int = 0) -> String {
        let plain = "\(passTypeIdentifier).\(serialNumber)"
        let sanitized = GoogleIdentifier.sanitized(plain)
        // A serial that ends as a digested one does (`-` and 32 hex digits) is digested too, so none can take
        // another pass's identifier.
        let looksDigested =
            plain.utf8.count > 33 && plain.utf8.suffix(33).first == UInt8(ascii: "-")
            && plain.utf8.suffix(32).allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        if generation == 0, sanitized == plain, plain.utf8.count <= 128, !looksDigested { return plain }
        var exact = Data(passTypeIdentifier.utf8)
        exact.append(0)
        exact.append(contentsOf: serialNumber.utf8)
        if generation > 0 { exact.append(contentsOf: "\u{0}\(generation)".utf8) }
        return sanitized.prefix(64) + "-" + SHA256.hash(data: exact).prefix(16).hexString
    }

    /// The name of an image named by its content: its SHA-256 in hex, with `.png`.
    public static func imageName(of image: Data) -> String {
        SHA256.hash(data: image).hexString + ".png"
    }

    /// Converts `pass`, whose other files are `files` (images, `xx.lproj/pass.strings`).
    public init(_ pass: Pass, files: [String: Data] = [:], options: Options) {
        var converter = Converter(pass: pass, files: files, options: options)
        (walletClass, walletObject) = converter.convert()
        findings = converter.findings
        images = converter.images
    }
}

/// The state of one conversion.
private struct Converter {
    let pass: Pass
    let files: [String: Data]
    let options: GooglePassConversion.Options
    let tables: [String: StringsFile]
    var findings: [LintFinding] = []
    /// The images the class and object refer to, by the name their URL ends with.
    var images: [String: Data] = [:]
    /// The top-level keys of `pass.json` the conversion used.
    var used: Set<String> = ["formatVersion", "passTypeIdentifier", "serialNumber", "organizationName", "description"]

    init(pass: Pass, files: [String: Data], options: GooglePassConversion.Options) {
        self.pass = pass
        self.files = files
        self.options = options
        tables = PassChecks.localizedTables(files)
    }

    /// Keys that concern Apple's devices or Coffer only, with no counterpart to report.
    static let appleOnly: Set<String> = [
        "teamIdentifier", "webServiceURL", "authenticationToken", "userInfo", "fidoProfile", "issuerBindingData",
        "foregroundColor", "labelColor", "suppressStripShine", "suppressHeaderDarkening", "useAutomaticColors",
        "preferredStyleSchemes",
    ]

    mutating func convert() -> (GoogleWalletClass, GoogleWalletObject) {
        let type = googleType()
        let classPrefix = options.issuerID + "."
        var walletClass = GoogleWalletClass(type: type, id: classPrefix)
        let suffix = GooglePassConversion.objectSuffix(
            passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber,
            generation: options.objectGeneration)
        var object = GoogleWalletObject(type: type, id: options.issuerID + "." + suffix, classId: "")
        object.state = pass.voided == true ? "INACTIVE" : "ACTIVE"
        if let end = pass.expirationDate {
            object.validTimeInterval = GoogleWallet.TimeInterval(
                start: nil, end: GoogleWallet.DateTime(date: W3CDate.string(from: end)))
            used.insert("expirationDate")
        }
        if pass.voided != nil { used.insert("voided") }
        object.barcode = barcode()
        object.textModulesData = textModules()
        object.merchantLocations = locations()
        object.heroImage = image(["strip", "background"])
        let color = pass.backgroundColor.map(Self.hex)
        if color != nil { used.insert("backgroundColor") }
        if type != .generic {
            walletClass.issuerName = pass.organizationName
            walletClass.reviewStatus = "UNDER_REVIEW"
            walletClass.hexBackgroundColor = color
        }
        switch type {
        case .generic:
            object.hexBackgroundColor = color
            fillGeneric(&object)
        case .eventTicket: fillEventTicket(&walletClass, &object)
        case .flight: fillFlight(&walletClass, &object)
        case .transit: fillTransit(&walletClass, &object)
        case .offer:
            walletClass.title = pass.description
            walletClass.provider = pass.organizationName
            walletClass.redemptionChannel = "BOTH"
            walletClass.titleImage = image(["logo", "icon"])
        case .loyalty: fillLoyalty(&walletClass, &object)
        case .giftCard: break
        }
        walletClass.callbackOptions = options.callbackURL.map { GoogleWallet.CallbackOptions(url: $0) }
        walletClass.id = classPrefix + identifier(pass.passTypeIdentifier) + "_" + classKey(of: walletClass)
        object.classId = walletClass.id
        reportUnused()
        return (walletClass, object)
    }

    // MARK: Kinds

    /// The kind the style asks for, or generic when the pass cannot fill what that kind requires.
    mutating func googleType() -> GoogleWalletType {
        let semantics = pass.semantics
        switch pass.style {
        case .boardingPass where pass.fields.transitType == .air:
            let missing = [
                ("semantics.airlineCode", semantics?.airlineCode == nil),
                ("semantics.flightNumber", semantics?.flightNumber == nil),
                ("semantics.departureAirportCode", semantics?.departureAirportCode == nil),
                ("semantics.destinationAirportCode", semantics?.destinationAirportCode == nil),
                (
                    "semantics.originalDepartureDate",
                    semantics?.originalDepartureDate == nil && semantics?.currentDepartureDate == nil
                ),
                ("semantics.passengerName", passengerName == nil),
            ].filter(\.1).map(\.0)
            return missing.isEmpty ? .flight : fallback("a flight", missing: missing)
        case .boardingPass:
            var missing = imageFile(["logo", "icon"]) == nil ? ["a logo URL"] : []
            if transitOrigin == nil { missing.append("semantics.departureStationName or a primary field") }
            if departure == nil, pass.expirationDate == nil {
                missing.append("semantics.originalDepartureDate or expirationDate")
            }
            return missing.isEmpty ? .transit : fallback("transit", missing: missing)
        case .coupon: return .offer
        case .eventTicket: return .eventTicket
        case .storeCard:
            return imageFile(["logo", "icon"]) == nil
                ? fallback("a loyalty card", missing: ["a logo URL"]) : .loyalty
        case .generic: return .generic
        }
    }

    mutating func fallback(_ kind: String, missing: [String]) -> GoogleWalletType {
        findings.append(
            LintFinding(
                code: "google.fallback", severity: .warning, path: pass.style.rawValue,
                message: "becomes a generic Google pass: \(kind) needs \(missing.joined(separator: ", "))"))
        return .generic
    }

    /// The passenger's name as Google shows it, if the pass has one.
    var passengerName: String? {
        let name = pass.semantics?.passengerName.map {
            [$0.givenName, $0.familyName].compactMap { $0 }.joined(separator: " ")
        }
        return name?.isEmpty == false ? name : nil
    }

    /// When the trip leaves, as the pass gives it.
    var departure: Date? { pass.semantics?.currentDepartureDate ?? pass.semantics?.originalDepartureDate }

    /// The key of ``departure`` in the pass's semantics.
    var departureKey: String {
        pass.semantics?.currentDepartureDate != nil ? "currentDepartureDate" : "originalDepartureDate"
    }

    /// The time zone the pass names for its departure, by either of Apple's spellings.
    var departureZone: String? {
        if let zone = pass.semantics?.departureLocationTimeZone { return zone }
        if case .string(let zone)? = pass.semantics?.json["departureAirportTimeZone"] { return zone }
        return nil
    }

    /// The transit trip's origin: the departure station, else the first primary field's text.
    var transitOrigin: String? {
        if let station = pass.semantics?.departureStationName { return station }
        guard case .text(let value)? = pass.fields.primaryFields?.first?.value else { return nil }
        return value
    }

    mutating func fillGeneric(_ object: inout GoogleWalletObject) {
        object.cardTitle = localized(pass.organizationName)
        let primary = pass.fields.primaryFields?.first
        if let primary, case .text(let value) = primary.value {
            object.header = localized(value)
            object.subheader = primary.label.map { localized($0) }
        } else {
            object.header = localized(pass.description)
        }
        object.logo = image(["logo", "icon"])
    }

    mutating func fillEventTicket(_ walletClass: inout GoogleWalletClass, _ object: inout GoogleWalletObject) {
        let semantics = pass.semantics
        var eventName = semantics?.eventName
        if eventName == nil, case .text(let value)? = pass.fields.primaryFields?.first?.value { eventName = value }
        walletClass.eventName = localized(eventName ?? pass.description)
        walletClass.logo = image(["logo", "icon"])
        if semantics?.eventStartDate != nil {
            let zone = semantics?.eventStartDateInfo?.timeZone
            walletClass.dateTime = GoogleWallet.EventDateTime(
                doorsOpen: localDateTime("venueDoorsOpenDate", zone: zone),
                start: localDateTime("eventStartDate", zone: zone), end: localDateTime("eventEndDate", zone: zone))
        }
        if let venue = semantics?.venueName {
            let address = semantics?.venueRegionName ?? venue
            walletClass.venue = GoogleWallet.EventVenue(name: localized(venue), address: localized(address))
        }
        if let seat = semantics?.seats?.first {
            object.seatInfo = GoogleWallet.EventSeat(
                seat: seat.seatNumber.map { localized($0) }, row: seat.seatRow.map { localized($0) },
                section: seat.seatSection.map { localized($0) },
                gate: semantics?.venueEntranceGate.map { localized($0) })
        }
        object.ticketHolderName = semantics?.attendeeName
        if semantics != nil { used.insert("semantics") }
    }

    mutating func fillFlight(_ walletClass: inout GoogleWalletClass, _ object: inout GoogleWalletObject) {
        guard let semantics = pass.semantics, let airline = semantics.airlineCode,
            let number = semantics.flightNumber, let from = semantics.departureAirportCode,
            let to = semantics.destinationAirportCode, let departure, let passengerName
        else { return }
        used.insert("semantics")
        walletClass.flightHeader = GoogleWallet.FlightHeader(
            carrier: .init(carrierIataCode: airline), flightNumber: String(number))
        walletClass.origin = GoogleWallet.AirportInfo(
            airportIataCode: from, terminal: semantics.departureTerminal, gate: semantics.departureGate)
        walletClass.destination = GoogleWallet.AirportInfo(airportIataCode: to, terminal: nil, gate: nil)
        if let zone = departureZone.flatMap(TimeZone.init(identifier:)) {
            walletClass.localScheduledDepartureDateTime = Self.localTime(departure, in: zone)
        } else {
            // Google wants the airport's local time without an offset: the part before the pass's own offset.
            let written = localDateTime(departureKey, zone: departureZone) ?? W3CDate.string(from: departure)
            walletClass.localScheduledDepartureDateTime = Self.withoutOffset(written)
        }
        object.passengerName = passengerName
        object.reservationInfo = GoogleWallet.ReservationInfo(confirmationCode: semantics.confirmationNumber)
        object.boardingAndSeatingInfo = GoogleWallet.BoardingAndSeatingInfo(
            boardingGroup: semantics.boardingGroup, seatNumber: semantics.seats?.first?.seatNumber,
            seatClass: semantics.ticketFareClass)
    }

    mutating func fillTransit(_ walletClass: inout GoogleWalletClass, _ object: inout GoogleWalletObject) {
        walletClass.transitType =
            switch pass.fields.transitType {
            case .train: "RAIL"
            case .bus: "BUS"
            case .boat: "FERRY"
            default: "OTHER"
            }
        walletClass.logo = image(["logo", "icon"])
        object.tripType = "ONE_WAY"
        let semantics = pass.semantics
        let primary = pass.fields.primaryFields ?? []
        var destination = semantics?.destinationStationName
        if destination == nil, primary.count > 1, case .text(let value) = primary[1].value { destination = value }
        let arrivalZone: String? =
            if let zone = semantics?.destinationLocationTimeZone {
                zone
            } else if case .string(let zone)? =
                semantics?.json["destinationAirportTimeZone"]
            { zone } else { nil }
        object.ticketLeg = GoogleWallet.TicketLeg(
            originName: transitOrigin.map { localized($0) }, destinationName: destination.map { localized($0) },
            departureDateTime: departure == nil ? nil : localDateTime(departureKey, zone: departureZone),
            arrivalDateTime: localDateTime(
                semantics?.currentArrivalDate != nil ? "currentArrivalDate" : "originalArrivalDate", zone: arrivalZone),
            platform: semantics?.departurePlatform)
        if semantics != nil { used.insert("semantics") }
    }

    mutating func fillLoyalty(_ walletClass: inout GoogleWalletClass, _ object: inout GoogleWalletObject) {
        walletClass.programName = pass.organizationName
        walletClass.programLogo = image(["logo", "icon"])
        object.accountId = pass.semantics?.membershipProgramNumber
        let points = (pass.fields.primaryFields ?? []).first
        if let points {
            var balance = GoogleWallet.LoyaltyPoints.Balance()
            switch points.value {
            case .number(let number) where number == number.rounded() && abs(number) < 2e9: balance.int = Int(number)
            case .number(let number): balance.double = number
            case .text(let text): balance.string = text
            }
            object.loyaltyPoints = GoogleWallet.LoyaltyPoints(label: points.label, balance: balance)
        }
        if pass.semantics?.membershipProgramNumber != nil { used.insert("semantics") }
    }

    // MARK: Parts

    /// The first barcode Google can draw; the others are reported.
    mutating func barcode() -> GoogleWallet.Barcode? {
        let barcodes = pass.barcodes ?? pass.barcode.map { [$0] } ?? []
        let key = pass.barcodes != nil ? "barcodes" : "barcode"
        guard !barcodes.isEmpty else { return nil }
        used.insert(key)
        var chosen: GoogleWallet.Barcode?
        for (index, barcode) in barcodes.enumerated() {
            let type: String? =
                switch barcode.format {
                case .qr: "QR_CODE"
                case .pdf417: "PDF_417"
                case .aztec: "AZTEC"
                case .code128: "CODE_128"
                case .code39: "CODE_39"
                case .codabar: "CODABAR"
                case .ean13: "EAN_13"
                case .interleaved2of5, nil: nil
                }
            if chosen == nil, let type {
                chosen = GoogleWallet.Barcode(type: type, value: barcode.message, alternateText: barcode.altText)
            } else {
                findings.append(
                    LintFinding(
                        code: "google.dropped", severity: .note,
                        path: pass.barcodes != nil ? "\(key)[\(index)]" : key,
                        message: type == nil
                            ? "has a format Google Wallet cannot draw" : "is not shown: Google shows one barcode"))
            }
        }
        return chosen
    }

    /// Every field as a text module, up to ``GooglePassConversion/maximumTextModules``.
    mutating func textModules() -> [GoogleWallet.TextModule]? {
        var modules: [GoogleWallet.TextModule] = []
        let style = pass.style.rawValue
        for (list, index, field) in pass.fields.all {
            used.insert(style)
            let path = "\(style).\(list)[\(index)]"
            guard modules.count < GooglePassConversion.maximumTextModules else {
                findings.append(
                    LintFinding(
                        code: "google.dropped", severity: .warning, path: path,
                        message: "is not shown: Google shows \(GooglePassConversion.maximumTextModules) text modules"))
                continue
            }
            let body: GoogleWallet.LocalizedString
            switch field.value {
            case .text(let text):
                body = W3CDate.date(from: text) != nil ? GoogleWallet.LocalizedString(text) : localized(text)
            case .number(let number):
                let amount = number.formatted(.number.grouping(.never))
                body = GoogleWallet.LocalizedString(field.currencyCode.map { "\(amount) \($0)" } ?? amount)
            }
            let header = field.label.map { localized($0) }
            modules.append(
                GoogleWallet.TextModule(
                    id: identifier(field.key, allowingDots: false), header: header?.defaultValue.value,
                    body: body.defaultValue.value, localizedHeader: header?.translatedValues == nil ? nil : header,
                    localizedBody: body.translatedValues == nil ? nil : body))
        }
        return modules.isEmpty ? nil : modules
    }

    /// The pass's locations, up to ``GooglePassConversion/maximumLocations``, when the issuer may use them.
    mutating func locations() -> [GoogleWallet.Location]? {
        guard let locations = pass.locations, !locations.isEmpty else { return nil }
        used.insert("locations")
        guard options.mayUseMerchantLocations else {
            findings.append(
                LintFinding(
                    code: "google.dropped", severity: .note, path: "locations",
                    message: "are not sent: Google takes merchantLocations only from issuers it has allowlisted"))
            return nil
        }
        for (index, location) in locations.enumerated() where location.relevantText != nil {
            findings.append(
                LintFinding(
                    code: "google.dropped", severity: .note, path: "locations[\(index)].relevantText",
                    message: "has no place in Google Wallet: Google writes its own location notifications"))
        }
        if locations.count > GooglePassConversion.maximumLocations {
            findings.append(
                LintFinding(
                    code: "google.dropped", severity: .warning, path: "locations",
                    message: "has \(locations.count) places; Google keeps \(GooglePassConversion.maximumLocations)"))
        }
        return locations.prefix(GooglePassConversion.maximumLocations).map {
            GoogleWallet.Location(latitude: $0.latitude, longitude: $0.longitude)
        }
    }

    /// The first of the images `stems` the pass has, as a URL under the image base URL, kept in ``images``.
    mutating func image(_ stems: [String]) -> GoogleWallet.Image? {
        guard let base = options.imageBaseURL, let file = imageFile(stems), let data = files[file] else { return nil }
        let name = options.namesImagesByDigest ? GooglePassConversion.imageName(of: data) : file
        images[name] = data
        return GoogleWallet.Image(url: base.hasSuffix("/") ? base + name : base + "/" + name)
    }

    /// The largest scale of the first of the images `stems` the pass has, when images are served.
    func imageFile(_ stems: [String]) -> String? {
        guard options.imageBaseURL != nil, let stem = stems.first(where: { files["\($0).png"] != nil }) else {
            return nil
        }
        return files["\(stem)@3x.png"] != nil
            ? "\(stem)@3x.png" : files["\(stem)@2x.png"] != nil ? "\(stem)@2x.png" : "\(stem).png"
    }

    /// `text` with its translations from the pass's `pass.strings` when it is one of their keys.
    func localized(_ text: String) -> GoogleWallet.LocalizedString {
        let translations = tables.keys.sorted().compactMap { language -> GoogleWallet.LocalizedString.Translation? in
            tables[language]?.entries[text].map { .init(language: language, value: $0) }
        }
        guard !translations.isEmpty else {
            return GoogleWallet.LocalizedString(text, language: options.defaultLanguage)
        }
        let preferred = translations.first { $0.language == options.defaultLanguage } ?? translations[0]
        return GoogleWallet.LocalizedString(
            preferred.value, language: preferred.language,
            translations: translations.filter { $0.language != preferred.language })
    }

    /// `text` with every character Google refuses in an identifier replaced by `_`.
    func identifier(_ text: String, allowingDots: Bool = true) -> String {
        GoogleIdentifier.sanitized(text, allowingDots: allowingDots)
    }

    /// The date at `key` of the pass's semantics as Google shows local times (the part before the offset is what
    /// holders read): as written when it carries an offset other than UTC's, moved to `zone` when it is in UTC and
    /// the pass names a zone, and otherwise as written with a `google.time-zone` finding.
    mutating func localDateTime(_ key: String, zone: String?) -> String? {
        guard case .string(let text)? = pass.semantics?.json[key], let date = W3CDate.date(from: text) else {
            return nil
        }
        let offset = Self.offset(of: text)
        guard offset == "Z" || offset == "+00:00" || offset == "-00:00" else { return text }
        if let zone = zone.flatMap(TimeZone.init(identifier:)) { return Self.offsetTime(date, in: zone) }
        findings.append(
            LintFinding(
                code: "google.time-zone", severity: .warning, path: "semantics.\(key)",
                message: zone == nil
                    ? "is in UTC and the pass names no time zone: Google shows UTC's time as the local one"
                    : "is in UTC and its time zone '\(zone!)' is unknown: Google shows UTC's time as the local one"))
        return text
    }

    /// Reports every top-level key of `pass.json` the conversion did not carry.
    mutating func reportUnused() {
        if pass.logoText != nil, pass.style == .generic { used.insert("logoText") }
        for key in pass.json.keys.sorted() where !used.contains(key) && !Self.appleOnly.contains(key) {
            findings.append(
                LintFinding(
                    code: "google.dropped", severity: .note, path: key,
                    message: "has no counterpart in this Google Wallet pass"))
        }
    }

    /// `#rrggbb`.
    static func hex(_ color: PassColor) -> String {
        "#" + [color.red, color.green, color.blue].hexString
    }

    /// `date` as local time in `zone`, without an offset: `2027-03-05T06:30:00`.
    static func localTime(_ date: Date, in zone: TimeZone) -> String {
        var style = Date.ISO8601FormatStyle(timeZone: zone)
        style = style.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)
            .timeSeparator(.colon)
        return style.format(date)
    }

    /// `date` in `zone` with the zone's offset there and then: `2026-06-05T20:00:00+02:00`.
    static func offsetTime(_ date: Date, in zone: TimeZone) -> String {
        Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: zone).format(date)
    }

    /// The offset a date ends with: `Z`, `+02:00`, or empty.
    static func offset(of text: String) -> Substring {
        if text.last == "Z" || text.last == "z" { return "Z" }
        guard text.count > 6 else { return "" }
        let tail = text.suffix(6)
        return (tail.first == "+" || tail.first == "-") && tail.dropFirst(3).first == ":" ? tail : ""
    }

    /// `text` without its offset: the local time it names.
    static func withoutOffset(_ text: String) -> String {
        String(text.dropLast(offset(of: text).count))
    }

    /// 32 hexadecimal digits (128 bits) of the SHA-256 of what makes the class the one it is, not of what it holds:
    /// the scope (``GooglePassConversion/Options/classScope``), the pass type, the kind, and the pass's `groupingIdentifier` (Apple's "same event or trip") or else the
    /// event's name, the flight and its day, the transit mode or the offer's title. A change to what the class holds
    /// (a new start time, venue or gate) keeps its identifier, so it is one class write for every holder.
    func classKey(of walletClass: GoogleWalletClass) -> String {
        var key: [String] = [options.classScope ?? "", pass.passTypeIdentifier, walletClass.type.rawValue]
        let grouped = [.eventTicket, .flight, .transit].contains(walletClass.type)
        switch walletClass.type {
        case _ where grouped && pass.groupingIdentifier != nil:
            key += ["group", pass.groupingIdentifier ?? ""]
        case .eventTicket:
            key += ["event", walletClass.eventName?.defaultValue.value ?? ""]
        case .flight:
            key += [
                "flight", walletClass.flightHeader?.carrier.carrierIataCode ?? "",
                walletClass.flightHeader?.flightNumber ?? "", walletClass.origin?.airportIataCode ?? "",
                String((walletClass.localScheduledDepartureDateTime ?? "").prefix(10)),
            ]
        case .transit:
            key += ["transit", walletClass.transitType ?? ""]
        case .offer:
            key += ["offer", walletClass.title ?? ""]
        case .generic, .loyalty, .giftCard:
            break
        }
        return SHA256.hash(data: Data(key.joined(separator: "\u{0}").utf8)).prefix(16).hexString
    }
}
