import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletPasses

/// One check of `PassLint`: a clean sample passes it; broken one way, the sample fails it at `path`.
struct LintCase: Sendable, CustomTestStringConvertible {
    let code: String
    let severity: LintFinding.Severity
    let path: String
    let sample: LintSample
    let breaking: @Sendable (inout Pass, inout [String: Data]) -> Void

    init(
        _ code: String, _ severity: LintFinding.Severity, at path: String, in sample: LintSample = .eventTicket,
        _ breaking: @escaping @Sendable (inout Pass, inout [String: Data]) -> Void
    ) {
        self.code = code
        self.severity = severity
        self.path = path
        self.sample = sample
        self.breaking = breaking
    }

    var testDescription: String { "\(code) at \(path) (\(sample.rawValue))" }
}

@Suite("Lint checks passes as Wallet reads them: each check passes a clean pass and names what breaks it")
struct PassLintTests {
    @Test("every sample is clean: no errors, no warnings", arguments: LintSample.allCases)
    func samplesAreClean(_ sample: LintSample) {
        let report = sample.report()
        #expect(report.errors.isEmpty && report.warnings.isEmpty, "\(report.findings)")
    }

    @Test("each check finds its problem at its path, with its severity", arguments: Self.cases)
    func check(_ lintCase: LintCase) throws {
        #expect(!lintCase.sample.report().findings.contains { $0.code == lintCase.code })
        var pass = lintCase.sample.pass
        var files = lintCase.sample.files
        lintCase.breaking(&pass, &files)
        let findings = PassLint.report(passJSON: try pass.encoded(), files: files).findings
        let matching = findings.filter { $0.code == lintCase.code }
        #expect(
            matching.contains { $0.path == lintCase.path && $0.severity == lintCase.severity }, "\(findings)")
    }

    @Test("pass.json that is not a JSON dictionary is one error; nothing else is checked")
    func invalidJSON() {
        for text in ["{", "[]", "42"] {
            let report = PassLint.report(passJSON: Data(text.utf8), files: nil)
            #expect(report.findings.map(\.code) == ["json.invalid"])
            #expect(report.renderings.isEmpty)
        }
    }

    @Test("signing refuses a pass with lint errors and names them; warnings do not stop it")
    func signingRefusesErrors() throws {
        var pass = LintSample.eventTicket.pass
        pass.fields.primaryFields![0].changeMessage = "Changed"
        let package = try PassPackage(pass: pass, files: LintSample.eventTicket.files)
        #expect(throws: WalletDocumentError.self) { try package.validate() }
        do {
            try package.validate()
        } catch WalletDocumentError.invalidPass(let findings) {
            #expect(findings.map(\.code) == ["field.change-message"])
        }
        pass = LintSample.eventTicket.pass
        pass.logoText = String(repeating: "x", count: 40)
        let warned = try PassPackage(pass: pass, files: LintSample.eventTicket.files)
        #expect(warned.lint().warnings.map(\.code) == ["field.text-length"])
        try warned.validate()
    }

    static let cases: [LintCase] =
        schemaCases + structureCases + fieldCases + barcodeAndRelevanceCases
        + serviceCases + layoutCases + imageCases + localizationCases

    static let schemaCases: [LintCase] = [
        LintCase("key.required", .error, at: "serialNumber") { pass, _ in pass.json["serialNumber"] = nil },
        LintCase("key.required", .error, at: "eventTicket.primaryFields[0].key") { pass, _ in
            pass.fields.primaryFields![0].json["key"] = nil
        },
        LintCase("key.type", .error, at: "semantics.eventName", in: .posterEventTicket) { pass, _ in
            pass.semantics!.json["eventName"] = .number(1)
        },
        LintCase("key.unknown", .note, at: "madeUpKey") { pass, _ in pass.json["madeUpKey"] = .bool(true) },
        LintCase("key.unknown", .note, at: "semantics.airlineLoungePlaceID", in: .semanticBoardingPass) { pass, _ in
            pass.semantics!.json["airlineLoungePlaceID"] = .string("I12345")
        },
        LintCase("key.deprecated", .warning, at: "suppressStripShine") { pass, _ in pass.suppressStripShine = true },
        LintCase("value.date", .error, at: "expirationDate") { pass, _ in
            pass.json["expirationDate"] = .string("2026-12-24")
        },
        LintCase("value.url", .error, at: "webServiceURL") { pass, _ in
            pass.webServiceURL = "http://passes.example.com/v1"
        },
        LintCase("value.url", .error, at: "featuredActions[0].url", in: .posterGeneric) { pass, _ in
            pass.featuredActions![0].url = "gym.example.com/book"
        },
        LintCase("value.color", .error, at: "backgroundColor") { pass, _ in
            pass.json["backgroundColor"] = .string("red")
        },
        LintCase("value.enumeration", .error, at: "barcodes[0].format") { pass, _ in
            pass.barcodes![0].json["format"] = .string("PKBarcodeFormatITF")
        },
        LintCase("value.enumeration", .error, at: "preferredStyleSchemes[0]", in: .posterEventTicket) { pass, _ in
            pass.preferredStyleSchemes = ["posterGeneric"]
        },
        LintCase("array.count", .error, at: "featuredActions", in: .posterGeneric) { pass, _ in
            pass.featuredActions!.append(PassAction(identifier: "shop", kind: .shop, url: "https://gym.example.com"))
        },
        LintCase("array.count", .error, at: "locations") { pass, _ in
            pass.locations = Array(repeating: PassLocation(latitude: 1, longitude: 2), count: 11)
        },
    ]

    static let structureCases: [LintCase] = [
        LintCase("pass.format-version", .error, at: "formatVersion") { pass, _ in pass.formatVersion = 2 },
        LintCase("pass.blank", .error, at: "organizationName") { pass, _ in pass.organizationName = " " },
        LintCase("pass.type-identifier", .error, at: "passTypeIdentifier") { pass, _ in
            pass.passTypeIdentifier = "com.example.ticket"
        },
        LintCase("pass.team-identifier", .error, at: "teamIdentifier") { pass, _ in pass.teamIdentifier = "TEAM-1" },
        LintCase("style.count", .error, at: "pass.json") { pass, _ in pass.json["coupon"] = .object([:]) },
        LintCase("style.count", .error, at: "pass.json") { pass, _ in pass.json["eventTicket"] = nil },
        LintCase("style.transit-type", .error, at: "boardingPass.transitType", in: .semanticBoardingPass) {
            pass, _ in pass.fields.transitType = nil
        },
        LintCase("style.transit-type", .error, at: "eventTicket.transitType") { pass, _ in
            pass.fields.transitType = .bus
        },
        LintCase("style.scheme", .warning, at: "preferredStyleSchemes[0]", in: .storeCard) { pass, _ in
            pass.preferredStyleSchemes = [Pass.StyleScheme.posterEventTicket]
        },
        LintCase("poster-generic.fallback", .error, at: "generic", in: .posterGeneric) { pass, _ in
            pass.json["generic"] = nil
        },
    ]

    static let fieldCases: [LintCase] = [
        LintCase("field.duplicate-key", .error, at: "eventTicket.secondaryFields[1].key") { pass, _ in
            pass.fields.secondaryFields![1].key = "date"
        },
        LintCase("field.blank-key", .error, at: "eventTicket.headerFields[0].key") { pass, _ in
            pass.fields.headerFields![0].key = ""
        },
        LintCase("field.change-message", .error, at: "eventTicket.primaryFields[0].changeMessage") { pass, _ in
            pass.fields.primaryFields![0].changeMessage = "The event changed"
        },
        LintCase("field.date-style", .warning, at: "eventTicket.primaryFields[0].dateStyle") { pass, _ in
            pass.fields.primaryFields![0].dateStyle = .short
        },
        LintCase("field.number-style", .warning, at: "eventTicket.primaryFields[0].numberStyle") { pass, _ in
            pass.fields.primaryFields![0].numberStyle = .decimal
        },
        LintCase("field.currency-code", .error, at: "eventTicket.secondaryFields[1].currencyCode") { pass, _ in
            pass.fields.secondaryFields![1].currencyCode = "euro"
        },
        LintCase("field.text-alignment", .warning, at: "eventTicket.backFields[0].textAlignment") { pass, _ in
            pass.fields.backFields![0].textAlignment = .right
        },
        LintCase("field.data-detectors", .warning, at: "eventTicket.headerFields[0].dataDetectorTypes") { pass, _ in
            pass.fields.headerFields![0].dataDetectorTypes = [.link]
        },
        LintCase("field.row", .error, at: "eventTicket.auxiliaryFields[0].row") { pass, _ in
            var field = PassField.text("gate", "B")
            field.row = 2
            pass.fields.auxiliaryFields = [field]
        },
        LintCase("field.text-length", .warning, at: "eventTicket.headerFields[0].value") { pass, _ in
            pass.fields.headerFields![0].value = .text("Row twelve, far left")
        },
        LintCase("field.text-length", .warning, at: "boardingPass.primaryFields[0].value", in: .semanticBoardingPass) {
            pass, _ in pass.fields.primaryFields![0].value = .text("San Francisco")
        },
        LintCase("field.count", .warning, at: "eventTicket.primaryFields") { pass, _ in
            pass.fields.primaryFields!.append(.text("second", "Encore"))
        },
        LintCase("field.count", .warning, at: "posterGeneric.footerFields", in: .posterGeneric) { pass, _ in
            pass.posterGeneric!.footerFields!.append(.text("more", "Open 24/7"))
        },
    ]

    static let barcodeAndRelevanceCases: [LintCase] = [
        LintCase("barcode.encoding", .error, at: "barcodes[0].messageEncoding") { pass, _ in
            pass.barcodes![0].messageEncoding = ""
        },
        LintCase("barcode.legacy-format", .error, at: "barcode.format") { pass, _ in
            pass.barcode = PassBarcode(format: .code128, message: "A")
        },
        LintCase("barcode.legacy-only", .warning, at: "barcode") { pass, _ in
            pass.barcode = pass.barcodes![0]
            pass.barcodes = nil
        },
        LintCase("barcode.fallback", .error, at: "barcodes", in: .posterGeneric) { pass, _ in
            pass.barcodes!.removeLast()
        },
        LintCase("personalization.serial-in-barcode", .error, at: "barcodes[0].message") { pass, files in
            files["personalization.json"] = Data(
                #"{"requiredPersonalizationFields":["PKPassPersonalizationFieldName"],"description":"Join"}"#.utf8)
            pass.barcodes = [PassBarcode(format: .qr, message: pass.serialNumber)]
        },
        LintCase("relevance.relevant-date", .warning, at: "relevantDate") { pass, _ in
            pass.relevantDate = Date(timeIntervalSince1970: 1_797_000_000)
        },
        LintCase("relevance.entry-spelling", .warning, at: "relevantDates[0].relevantDate") { pass, _ in
            pass.relevantDates = [PassRelevantDate(json: ["relevantDate": .string("2026-12-24T20:00:00Z")])]
        },
        LintCase("relevance.entry", .error, at: "relevantDates[0]") { pass, _ in
            pass.relevantDates = [PassRelevantDate()]
        },
        LintCase("relevance.entry", .error, at: "relevantDates[0].endDate") { pass, _ in
            pass.relevantDates = [PassRelevantDate(startDate: Date(timeIntervalSince1970: 1_797_000_000))]
        },
        LintCase("relevance.interval", .error, at: "relevantDates[0]") { pass, _ in
            let start = Date(timeIntervalSince1970: 1_797_000_000)
            pass.relevantDates = [PassRelevantDate(startDate: start, endDate: start + 25 * 3600)]
        },
        LintCase("relevance.interval", .error, at: "relevantDates[0].endDate") { pass, _ in
            let start = Date(timeIntervalSince1970: 1_797_000_000)
            pass.relevantDates = [PassRelevantDate(startDate: start, endDate: start - 60)]
        },
        LintCase("relevance.location", .error, at: "locations[0].latitude") { pass, _ in
            pass.locations![0].latitude = 91
        },
        LintCase("relevance.beacon", .error, at: "beacons[0].proximityUUID") { pass, _ in
            pass.beacons = [PassBeacon(proximityUUID: "not-a-uuid")]
        },
        LintCase("relevance.max-distance", .error, at: "maxDistance") { pass, _ in pass.maxDistance = -1 },
    ]

    static let serviceCases: [LintCase] = [
        LintCase("web-service.pair", .error, at: "authenticationToken") { pass, _ in pass.authenticationToken = nil },
        LintCase("web-service.token", .error, at: "authenticationToken") { pass, _ in
            pass.authenticationToken = "short"
        },
        LintCase("web-service.identifier", .error, at: "serialNumber") { pass, _ in pass.serialNumber = "réf-été" },
        LintCase("web-service.identifier", .error, at: "passTypeIdentifier") { pass, _ in
            pass.passTypeIdentifier = "pass.example/tickets"
        },
        LintCase("app.launch-url", .warning, at: "appLaunchURL") { pass, _ in pass.appLaunchURL = "example://t/1" },
        LintCase("nfc.message", .error, at: "nfc.message", in: .posterEventTicket) { pass, _ in
            pass.nfc!.message = String(repeating: "x", count: 65)
        },
        LintCase("nfc.encryption-key", .error, at: "nfc.encryptionPublicKey", in: .posterEventTicket) { pass, _ in
            pass.nfc!.encryptionPublicKey = Data(repeating: 4, count: 91).base64EncodedString()
        },
        LintCase("nfc.sharing", .warning, at: "sharingProhibited", in: .posterEventTicket) { pass, _ in
            pass.sharingProhibited = nil
        },
        LintCase("poster-event.nfc-authentication", .warning, at: "nfc.requiresAuthentication", in: .posterEventTicket)
        {
            pass, _ in pass.nfc!.requiresAuthentication = nil
        },
        LintCase(
            "semantic-boarding.builder-spelling", .note, at: "semantics.departureAirportTimeZone",
            in: .semanticBoardingPass
        ) { pass, _ in pass.semantics!.json["departureAirportTimeZone"] = nil },
        LintCase("binding.fido-profile", .error, at: "issuerBindingData", in: .posterEventTicket) { pass, _ in
            pass.issuerBindingData = PassIssuerBindingData(issuerBindingData: "0a")
        },
        LintCase("binding.fido-profile", .error, at: "fidoProfile.accountHash", in: .posterEventTicket) { pass, _ in
            pass.fidoProfile = FIDOProfile(relyingPartyIdentifier: "example.com", accountHash: " ")
        },
        LintCase("binding.nfc", .warning, at: "nfc") { pass, _ in
            pass.fidoProfile = FIDOProfile(relyingPartyIdentifier: "example.com", accountHash: "ab")
        },
        LintCase("binding.hex", .error, at: "issuerBindingData.issuerBindingData", in: .posterEventTicket) {
            pass, _ in
            pass.fidoProfile = FIDOProfile(relyingPartyIdentifier: "example.com", accountHash: "ab")
            pass.issuerBindingData = PassIssuerBindingData(issuerBindingData: "xyz")
        },
        LintCase("semantics.scope", .note, at: "semantics.flightNumber", in: .posterEventTicket) { pass, _ in
            pass.semantics!.flightNumber = 815
        },
        LintCase("semantics.time-zone", .error, at: "semantics.destinationLocationTimeZone", in: .semanticBoardingPass)
        {
            pass, _ in pass.semantics!.destinationLocationTimeZone = "London"
        },
        LintCase("semantics.currency-code", .error, at: "semantics.balance.currencyCode", in: .storeCard) { pass, _ in
            pass.semantics!.balance!.currencyCode = "eur"
        },
        LintCase("semantics.amount", .error, at: "semantics.balance.amount", in: .storeCard) { pass, _ in
            pass.semantics!.balance!.amount = "twelve"
        },
    ]

    static let layoutCases: [LintCase] = [
        LintCase("poster-event.semantics", .error, at: "semantics.venueRoom", in: .posterEventTicket) { pass, _ in
            pass.semantics!.venueRoom = nil
        },
        LintCase("poster-event.semantics", .error, at: "semantics.homeTeamAbbreviation", in: .posterEventTicket) {
            pass, _ in pass.semantics!.eventType = .sports
        },
        LintCase("poster-event.start-date", .warning, at: "semantics.eventStartDate", in: .posterEventTicket) {
            pass, _ in pass.semantics!.eventStartDate = nil
        },
        LintCase("poster-event.nfc", .warning, at: "nfc", in: .posterEventTicket) { pass, _ in pass.nfc = nil },
        LintCase("poster-event.image", .error, at: "artwork.png", in: .posterEventTicket) { _, files in
            for name in ["artwork.png", "artwork@2x.png", "artwork@3x.png"] { files[name] = nil }
        },
        LintCase("poster-event.image", .warning, at: "primaryLogo.png", in: .posterEventTicket) { _, files in
            for name in ["primaryLogo.png", "primaryLogo@2x.png", "primaryLogo@3x.png"] { files[name] = nil }
        },
        LintCase("poster-event.fallback", .warning, at: "eventTicket", in: .posterEventTicket) { pass, _ in
            pass.fields = PassFields(headerFields: pass.fields.headerFields, backFields: pass.fields.backFields)
        },
        LintCase("poster-event.logo-text", .note, at: "logoText", in: .posterEventTicket) { pass, _ in
            pass.logoText = "Coffer"
            pass.eventLogoText = nil
        },
        LintCase("poster-event.only", .note, at: "eventLogoText") { pass, _ in pass.eventLogoText = "Coffer" },
        LintCase("semantic-boarding.transit-type", .error, at: "boardingPass.transitType", in: .semanticBoardingPass) {
            pass, _ in pass.fields.transitType = .train
        },
        LintCase("semantic-boarding.semantics", .error, at: "semantics.passengerName", in: .semanticBoardingPass) {
            pass, _ in pass.semantics!.passengerName = nil
        },
        LintCase("semantic-boarding.recommended", .note, at: "semantics.transitProvider", in: .semanticBoardingPass) {
            pass, _ in pass.semantics!.transitProvider = nil
        },
        LintCase("semantic-boarding.only", .note, at: "upgradeURL") { pass, _ in
            pass.upgradeURL = "https://air.example.com/upgrade"
        },
        LintCase("featured-action.identifier", .error, at: "featuredActions[1].identifier", in: .posterGeneric) {
            pass, _ in pass.featuredActions![1].identifier = "book"
        },
        LintCase("featured-action.url", .error, at: "featuredActions[0].url", in: .posterGeneric) { pass, _ in
            pass.featuredActions![0].url = nil
        },
        LintCase("upcoming.identifier", .error, at: "upcomingPassInformation[1].identifier", in: .posterEventTicket) {
            pass, _ in
            pass.upcomingPassInformation = [
                PassUpcomingEntry(identifier: "day-1", name: "Day 1"),
                PassUpcomingEntry(identifier: "day-1", name: "Day 2"),
            ]
        },
        LintCase(
            "upcoming.image-hash", .error, at: "upcomingPassInformation[0].images.venueMap.URLs[0].SHA256",
            in: .posterEventTicket
        ) { pass, _ in
            var entry = PassUpcomingEntry(identifier: "day-1", name: "Day 1")
            var map = PassUpcomingEntry.Image(json: [:])
            map.urls = [PassUpcomingEntry.ImageURL(url: "https://venue.example.com/map.png", sha256: "abc")]
            entry.images = PassUpcomingEntry.Images(json: ["venueMap": map.documentJSON])
            pass.upcomingPassInformation = [entry]
        },
        LintCase(
            "upcoming.image-size", .error, at: "upcomingPassInformation[0].images.headerImage.URLs[0].size",
            in: .posterEventTicket
        ) { pass, _ in
            var entry = PassUpcomingEntry(identifier: "day-1", name: "Day 1")
            var header = PassUpcomingEntry.Image(json: [:])
            header.urls = [
                PassUpcomingEntry.ImageURL(
                    url: "https://venue.example.com/h.png", sha256: String(repeating: "ab", count: 32),
                    size: 3_000_000)
            ]
            entry.images = PassUpcomingEntry.Images(json: ["headerImage": header.documentJSON])
            pass.upcomingPassInformation = [entry]
        },
    ]

    static let imageCases: [LintCase] = [
        LintCase("image.icon", .error, at: "icon.png") { _, files in files["icon.png"] = nil },
        LintCase("image.icon", .warning, at: "icon@3x.png") { _, files in files["icon@3x.png"] = nil },
        LintCase("image.unused", .warning, at: "footer.png") { _, files in
            files["footer.png"] = LintSample.png(width: 286, height: 15)
        },
        LintCase("image.unknown", .note, at: "banner.png") { _, files in
            files["banner.png"] = LintSample.png(width: 10, height: 10)
        },
        LintCase("image.scale", .warning, at: "logo@2x.png") { _, files in
            files["logo@2x.png"] = LintSample.png(width: 300, height: 100)
        },
        LintCase("image.size", .warning, at: "logo@3x.png") { _, files in
            files["logo@3x.png"] = LintSample.png(width: 600, height: 150)
        },
        LintCase("image.size", .warning, at: "strip.png") { _, files in
            files["strip.png"] = LintSample.png(width: 375, height: 375)
        },
        LintCase("file.png", .error, at: "logo.png") { _, files in files["logo.png"] = Data("GIF89a".utf8) },
    ]

    static let localizationCases: [LintCase] = [
        LintCase("strings.encoding", .error, at: "fr.lproj/pass.strings") { _, files in
            files["fr.lproj/pass.strings"] = Data([0xD8, 0x00, 0xFF])
        },
        LintCase("strings.encoding", .error, at: "de.lproj/pass.strings", in: .localized) { _, files in
            files["de.lproj/pass.strings"] = Data([0xFF, 0xFE, 0x22])
        },
        LintCase("strings.encoding", .error, at: "de.lproj/pass.strings", in: .localized) { _, files in
            files["de.lproj/pass.strings"] = "\"event.label\" = \"VERANSTALTUNG\";".data(using: .utf16LittleEndian)
        },
        LintCase("strings.syntax", .error, at: "de.lproj/pass.strings", in: .localized) { _, files in
            files["de.lproj/pass.strings"] = Data("\"event.label\" = \"VERANSTALTUNG\"\n\"event.value\" = \"x\";".utf8)
        },
        LintCase("strings.missing", .warning, at: "ja.lproj/pass.strings", in: .localized) { _, files in
            files["ja.lproj/pass.strings"] = StringsFile(["event.label": "イベント", "event.changeMessage": "%@"]).encoded()
        },
        LintCase("field.change-message", .error, at: "de.lproj/pass.strings", in: .localized) { _, files in
            files["de.lproj/pass.strings"] = StringsFile([
                "event.label": "VERANSTALTUNG", "event.value": "Swift im Konzert", "event.changeMessage": "Neu",
            ]).encoded()
        },
        LintCase("strings.missing", .warning, at: "fr.lproj/pass.strings", in: .localized) { _, files in
            files["fr.lproj/logo.png"] = LintSample.png(width: 160, height: 50)
        },
        LintCase("strings.unused", .warning, at: "de.lproj/pass.strings", in: .localized) { _, files in
            files["de.lproj/pass.strings"] = StringsFile([
                "event.label": "VERANSTALTUNG", "event.value": "Swift im Konzert", "event.changeMessage": "%@",
                "event.old": "Alt",
            ]).encoded()
        },
        LintCase("image.shadowed", .warning, at: "de.lproj/logo.png", in: .localized) { _, files in
            files["de.lproj/logo.png"] = LintSample.png(width: 160, height: 50)
        },
        LintCase("localization.language", .warning, at: "German.lproj", in: .localized) { _, files in
            files["German.lproj/pass.strings"] = files["de.lproj/pass.strings"]
        },
    ]
}
