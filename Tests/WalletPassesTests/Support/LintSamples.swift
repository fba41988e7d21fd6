import Crypto
import Foundation
@testable import WalletDocuments
@testable import WalletPasses

/// Clean passes of every layout (no errors, no warnings), with images of the sizes Wallet draws: the starting points
/// the lint tests break one way at a time.
enum LintSample: String, CaseIterable, Sendable {
    case eventTicket, posterEventTicket, semanticBoardingPass, posterGeneric, storeCard, localized

    /// The localized sample's texts: the label and value of its `event` field in English, German and Japanese.
    static let translations: [(language: String, label: String, value: String)] = [
        ("en", "EVENT", "Swift in Concert"), ("de", "VERANSTALTUNG", "Swift im Konzert"),
        ("ja", "イベント", "Swift コンサート"),
    ]

    /// A PNG header of `width`×`height` pixels: what lint reads of an image.
    static func png(width: Int, height: Int) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8)
        for value in [width, height] {
            bytes += (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
        bytes += [8, 6, 0, 0, 0, 0, 0, 0, 0]
        return Data(bytes)
    }

    /// `stem.png`, `stem@2x.png` and `stem@3x.png` of `width`×`height` points.
    static func images(_ stem: String, width: Int, height: Int) -> [String: Data] {
        [1, 2, 3].reduce(into: [:]) { files, scale in
            files[scale == 1 ? "\(stem).png" : "\(stem)@\(scale)x.png"] = png(
                width: width * scale, height: height * scale)
        }
    }

    /// A Base64 SubjectPublicKeyInfo of a P-256 key, as `nfc.encryptionPublicKey` holds.
    static let nfcKey = P256.KeyAgreement.PrivateKey().publicKey.derRepresentation.base64EncodedString()

    /// The pass.
    var pass: Pass {
        switch self {
        case .eventTicket:
            return Fixtures.pass()
        case .localized:
            var pass = Fixtures.pass()
            pass.fields.modifyField(forKey: "event") {
                $0.label = "event.label"
                $0.value = .text("event.value")
                $0.changeMessage = "event.changeMessage"
            }
            return pass
        case .posterEventTicket:
            var pass = Fixtures.pass()
            pass.preferredStyleSchemes = [Pass.StyleScheme.posterEventTicket, "eventTicket"]
            var semantics = PassSemantics()
            semantics.eventName = "Swift in Concert"
            semantics.eventType = .livePerformance
            semantics.performerNames = ["The Optionals"]
            semantics.venueName = "Main Hall"
            semantics.venueRegionName = "Paris"
            semantics.venueRoom = "Hall A"
            semantics.eventStartDate = Date(timeIntervalSince1970: 1_797_000_000)
            semantics.seats = [PassSemantics.Seat(section: "A", row: "12", number: "7")]
            pass.semantics = semantics
            pass.nfc = PassNFC(message: "TICKET-001", encryptionPublicKey: Self.nfcKey, requiresAuthentication: true)
            pass.sharingProhibited = true
            pass.eventLogoText = "Coffer Live"
            pass.bagPolicyURL = "https://venue.example.com/bags"
            return pass
        case .semanticBoardingPass:
            var pass = Pass(
                passTypeIdentifier: Fixtures.passTypeIdentifier, teamIdentifier: Fixtures.teamIdentifier,
                serialNumber: "BP-1", organizationName: "Example Air", description: "Boarding pass",
                style: .boardingPass,
                fields: PassFields(
                    primaryFields: [.text("from", "SFO", label: "SAN FRANCISCO"), .text("to", "LHR", label: "LONDON")],
                    transitType: .air))
            pass.preferredStyleSchemes = [Pass.StyleScheme.semanticBoardingPass, "boardingPass"]
            var semantics = PassSemantics()
            semantics.airlineCode = "EX"
            semantics.flightNumber = 123
            semantics.departureAirportCode = "SFO"
            semantics.departureCityName = "San Francisco"
            semantics.departureLocationTimeZone = "America/Los_Angeles"
            semantics.json["departureAirportTimeZone"] = .string("America/Los_Angeles")
            semantics.destinationAirportCode = "LHR"
            semantics.destinationCityName = "London"
            semantics.destinationLocationTimeZone = "Europe/London"
            semantics.json["destinationAirportTimeZone"] = .string("Europe/London")
            semantics.originalBoardingDate = Date(timeIntervalSince1970: 1_797_000_000)
            semantics.originalDepartureDate = Date(timeIntervalSince1970: 1_797_001_800)
            semantics.originalArrivalDate = Date(timeIntervalSince1970: 1_797_040_000)
            semantics.passengerName = PassSemantics.PersonName(givenName: "Ada", familyName: "Lovelace")
            semantics.departureAirportName = "San Francisco International"
            semantics.departureLocation = PassSemantics.Location(latitude: 37.62, longitude: -122.38)
            semantics.destinationAirportName = "London Heathrow"
            semantics.destinationLocation = PassSemantics.Location(latitude: 51.47, longitude: -0.45)
            semantics.departureLocationSecurityPrograms = ["PKTransitSecurityProgramTSAPreCheck"]
            semantics.destinationLocationSecurityPrograms = []
            semantics.passengerEligibleSecurityPrograms = ["PKTransitSecurityProgramTSAPreCheck"]
            semantics.transitProvider = "Example Air"
            pass.semantics = semantics
            pass.barcodes = [PassBarcode(format: .pdf417, message: "M1LOVELACE/ADA")]
            pass.upgradeURL = "https://air.example.com/upgrade"
            return pass
        case .posterGeneric:
            var pass = Pass(
                passTypeIdentifier: Fixtures.passTypeIdentifier, teamIdentifier: Fixtures.teamIdentifier,
                serialNumber: "MEMBER-1", organizationName: "Coffer Gym", description: "Membership",
                style: .generic,
                fields: PassFields(primaryFields: [.text("member", "Ada Lovelace", label: "MEMBER")]))
            var poster = PassFields(
                headerFields: [.text("level", "Gold", label: "LEVEL")],
                primaryFields: [.text("name", "Ada Lovelace"), .text("since", "2024", label: "SINCE")])
            poster.footerFields = [.text("club", "Coffer Gym Paris")]
            pass.posterGeneric = poster
            pass.barcodes = [
                PassBarcode(format: .ean13, message: "4006381333931"),
                PassBarcode(format: .qr, message: "4006381333931"),
            ]
            pass.featuredActions = [
                PassAction(identifier: "book", kind: .bookAppointment, url: "https://gym.example.com/book"),
                PassAction(identifier: "benefits", kind: .membershipBenefits, url: "https://gym.example.com/perks"),
            ]
            return pass
        case .storeCard:
            var pass = Pass(
                passTypeIdentifier: Fixtures.passTypeIdentifier, teamIdentifier: Fixtures.teamIdentifier,
                serialNumber: "CARD-1", organizationName: "Coffer Coffee", description: "Store card",
                style: .storeCard,
                fields: PassFields(primaryFields: [PassField(key: "balance", value: .number(12.5), currencyCode: "EUR")]
                ))
            var semantics = PassSemantics()
            semantics.balance = PassSemantics.CurrencyAmount(amount: "12.50", currencyCode: "EUR")
            pass.semantics = semantics
            pass.barcodes = [PassBarcode(format: .qr, message: "CARD-1")]
            return pass
        }
    }

    /// The pass's images.
    var files: [String: Data] {
        var files = Self.images("icon", width: 38, height: 38).merging(Self.images("logo", width: 160, height: 50)) {
            $1
        }
        switch self {
        case .eventTicket:
            files.merge(Self.images("strip", width: 375, height: 98)) { $1 }
        case .localized:
            files.merge(Self.images("strip", width: 375, height: 98)) { $1 }
            for (language, label, value) in Self.translations {
                files["\(language).lproj/pass.strings"] =
                    StringsFile(["event.label": label, "event.value": value, "event.changeMessage": "\(label): %@"])
                    .encoded()
            }
        case .posterEventTicket:
            files.merge(Self.images("strip", width: 375, height: 98)) { $1 }
            files.merge(Self.images("artwork", width: 358, height: 448)) { $1 }
            files.merge(Self.images("primaryLogo", width: 126, height: 30)) { $1 }
        case .semanticBoardingPass:
            files.merge(Self.images("footer", width: 286, height: 15)) { $1 }
            files.merge(Self.images("primaryLogo", width: 126, height: 30)) { $1 }
        case .posterGeneric:
            files.merge(Self.images("thumbnail", width: 90, height: 90)) { $1 }
            files.merge(Self.images("artwork", width: 358, height: 448)) { $1 }
        case .storeCard:
            files.merge(Self.images("strip", width: 375, height: 144)) { $1 }
        }
        return files
    }

    /// What lint finds in the sample.
    func report() -> PassLintReport {
        PassLint.report(passJSON: try! pass.encoded(), files: files)
    }
}
