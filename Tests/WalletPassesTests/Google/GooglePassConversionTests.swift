import Foundation
import Testing

@testable import WalletDocuments
@testable import WalletGoogle
@testable import WalletPasses

@Suite("Google Wallet: a pass made into a class and an object Google's API takes, naming what it drops")
struct GooglePassConversionTests {
    static let options = GooglePassConversion.Options(
        issuerID: "3388000000012345678", imageBaseURL: "https://passes.example.com/images/PASS-1")

    static func parse(_ text: String) throws -> JSONValue { try JSONValue(parsing: Data(text.utf8)) }

    /// Every sample of the lint's tests, and every example pass.
    static let samples: [(name: String, pass: Pass, files: [String: Data])] = {
        var samples = LintSample.allCases.map { ("sample \($0.rawValue)", $0.pass, $0.files) }
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/Passes")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: examples.path))?.sorted() ?? [] {
            guard let package = try? PassPackage(directory: examples.appendingPathComponent(name)),
                let pass = try? package.pass
            else { continue }
            samples.append(("example \(name)", pass, package.files))
        }
        return samples
    }()

    @Test(
        "every sample and example converts to a class and an object valid against Google's discovery document",
        .enabled(
            if: GoogleDiscoveryDocument.fromEnvironment != nil,
            "set COFFER_TEST_GOOGLE_DISCOVERY to walletobjects.v1.json (.ci/run does)")
    )
    func validAgainstDiscovery() throws {
        let schema = try #require(GoogleDiscoveryDocument.fromEnvironment)
        let messages = Array(repeating: #"{"header": "h"}"#, count: 11).joined(separator: ",")
        let wrong = try Self.parse(
            #"{"id": 7, "classId": "c", "state": "GONE", "colour": "red", "cardTitle": {}, "messages": ["#
                + messages + "]}")
        #expect(
            Set(schema.problems(wrong, as: "GenericObject")).isSuperset(of: [
                "GenericObject.id is not a string", "GenericObject.state is 'GONE', not one of the enumeration",
                "GenericObject.colour is not a property of the schema", "GenericObject.header is required",
                "GenericObject.messages has 11 items; Google rejects more than 10",
            ]), "the validator finds what is wrong")
        #expect(Self.samples.count >= 10)
        for sample in Self.samples {
            let conversion = GooglePassConversion(sample.pass, files: sample.files, options: Self.options)
            let names = conversion.walletClass.type.schemaNames
            let problems =
                schema.problems(conversion.walletClass, as: names.walletClass)
                + schema.problems(conversion.walletObject, as: names.walletObject)
            #expect(problems.isEmpty, "\(sample.name) (revision \(schema.revision)): \(problems)")
        }
    }

    @Test(
        "the discovery walk finds a nested required field removed",
        .enabled(
            if: GoogleDiscoveryDocument.fromEnvironment != nil,
            "set COFFER_TEST_GOOGLE_DISCOVERY to walletobjects.v1.json (.ci/run does)")
    )
    func nestedRequiredField() throws {
        let schema = try #require(GoogleDiscoveryDocument.fromEnvironment)
        let sample = LintSample.semanticBoardingPass
        let flight = GooglePassConversion(sample.pass, files: sample.files, options: Self.options).walletClass
        #expect(schema.problems(flight, as: "FlightClass").isEmpty)
        guard case .object(var json) = try JSONValue(parsing: JSONEncoder().encode(flight)),
            case .object(var origin)? = json["origin"], case .object(var header)? = json["flightHeader"]
        else { throw CocoaError(.coderInvalidValue) }
        origin["airportIataCode"] = nil
        header["flightNumber"] = nil
        (json["origin"], json["flightHeader"]) = (.object(origin), .object(header))
        #expect(
            Set(schema.problems(JSONValue.object(json), as: "FlightClass")) == [
                "FlightClass.origin.airportIataCode is required", "FlightClass.flightHeader.flightNumber is required",
            ])
        let leg = try Self.parse(
            #"{"id": "1.o", "classId": "1.c", "state": "ACTIVE", "tripType": "ONE_WAY", "#
                + #""ticketLeg": {"destinationName": {"defaultValue": {"language": "en", "value": "Bern"}}}}"#)
        #expect(
            Set(schema.problems(leg, as: "TransitObject")) == [
                "TransitObject.ticketLeg.originName is required",
                "TransitObject.ticketLeg.departureDateTime is required without the object's validTimeInterval",
            ])
    }

    @Test("an event's times keep the offset the pass gives: Google shows the part before it as the venue's time")
    func eventLocalTime() throws {
        var pass = LintSample.posterEventTicket.pass
        pass.semantics?.json["eventStartDate"] = .string("2026-06-05T20:00:00+02:00")
        pass.semantics?.json["eventEndDate"] = .string("2026-06-05T23:00:00+02:00")
        let kept = GooglePassConversion(pass, files: LintSample.posterEventTicket.files, options: Self.options)
        #expect(kept.walletClass.dateTime?.start == "2026-06-05T20:00:00+02:00")
        #expect(kept.walletClass.dateTime?.end == "2026-06-05T23:00:00+02:00")
        #expect(!kept.findings.contains { $0.code == "google.time-zone" })

        pass.semantics?.json["eventStartDate"] = .string("2026-06-05T18:00:00Z")
        pass.semantics?.json["eventEndDate"] = nil
        pass.semantics?.eventStartDateInfo = .init(timeZone: "Europe/Berlin")
        let zoned = GooglePassConversion(pass, files: LintSample.posterEventTicket.files, options: Self.options)
        #expect(zoned.walletClass.dateTime?.start == "2026-06-05T20:00:00+02:00", "moved to the zone the pass names")

        pass.semantics?.eventStartDateInfo = nil
        let utc = GooglePassConversion(pass, files: LintSample.posterEventTicket.files, options: Self.options)
        #expect(utc.walletClass.dateTime?.start == "2026-06-05T18:00:00Z")
        #expect(
            utc.findings.contains { $0.code == "google.time-zone" && $0.path == "semantics.eventStartDate" },
            "what is lost is named")
    }

    @Test("a flight's departure is the airport's local time: its zone, else the part before the pass's offset")
    func flightLocalTime() throws {
        var pass = LintSample.semanticBoardingPass.pass
        let zoned = GooglePassConversion(pass, files: LintSample.semanticBoardingPass.files, options: Self.options)
        // 1_797_001_800 is 2026-12-11T15:10:00Z, 07:10 in Los Angeles.
        #expect(zoned.walletClass.localScheduledDepartureDateTime == "2026-12-11T07:10:00")
        pass.semantics?.departureLocationTimeZone = nil
        pass.semantics?.json["departureAirportTimeZone"] = nil
        pass.semantics?.json["originalDepartureDate"] = .string("2026-12-11T07:10:00-08:00")
        let offset = GooglePassConversion(pass, files: LintSample.semanticBoardingPass.files, options: Self.options)
        #expect(offset.walletClass.localScheduledDepartureDateTime == "2026-12-11T07:10:00")
    }

    @Test("serials that differ only in characters Google refuses get different objects; plain ones stay readable")
    func objectIdentifiers() throws {
        let pass = LintSample.eventTicket.pass
        func objectID(_ serial: String, generation: Int = 0) -> String {
            var pass = LintSample.eventTicket.pass
            pass.serialNumber = serial
            var options = Self.options
            options.objectGeneration = generation
            return GooglePassConversion(pass, files: LintSample.eventTicket.files, options: options).walletObject.id
        }
        let ids = ["A/1", "A_1", "A 1", "café", "cafè", "A-1"].map { objectID($0) }
        #expect(Set(ids).count == ids.count)
        #expect(ids[1] == "3388000000012345678.\(LintSample.eventTicket.pass.passTypeIdentifier).A_1")
        #expect(ids.allSatisfy { GoogleIdentifier.sanitized($0) == $0 })
        #expect(objectID("A_1", generation: 1) != ids[1], "a replaced object has an identifier of its own")
        #expect(objectID("A_1", generation: 1) != objectID("A_1", generation: 2))
        #expect(objectID(String(repeating: "x", count: 400)).utf8.count < 120, "long serials are cut and digested")
        let digested = objectID("A/1")
        let squatter = String(digested.dropFirst("3388000000012345678.".count + pass.passTypeIdentifier.count + 1))
        #expect(
            squatter.hasPrefix("A_1-") && objectID(squatter) != digested, "a serial that looks digested is digested")
    }

    @Test("a class is named by what it is, not what it holds: a new start keeps it; another client has its own")
    func classIdentity() throws {
        var pass = LintSample.posterEventTicket.pass
        let files = LintSample.posterEventTicket.files
        let before = GooglePassConversion(pass, files: files, options: Self.options).walletClass
        pass.semantics?.json["eventStartDate"] = .string("2026-06-05T21:00:00+02:00")
        pass.semantics?.venueName = "Hall B"
        pass.serialNumber = "another ticket"
        let moved = GooglePassConversion(pass, files: files, options: Self.options).walletClass
        #expect(moved.id == before.id && moved != before, "the same class, holding the new start and venue")
        var scoped = Self.options
        scoped.classScope = "another client"
        #expect(GooglePassConversion(pass, files: files, options: scoped).walletClass.id != before.id)
        pass.semantics?.eventName = "Another concert"
        #expect(GooglePassConversion(pass, files: files, options: Self.options).walletClass.id != before.id)
        pass.groupingIdentifier = "final-2026"
        let grouped = GooglePassConversion(pass, files: files, options: Self.options).walletClass.id
        pass.semantics?.eventName = "Renamed"
        #expect(
            GooglePassConversion(pass, files: files, options: Self.options).walletClass.id == grouped,
            "the grouping identifier names the event")
        #expect(grouped.utf8.count <= 256 && grouped.suffix(32).allSatisfy(\.isHexDigit))
    }

    @Test("a kind whose required data the pass lacks falls back, with a finding")
    func requiredDataFallbacks() throws {
        var flight = LintSample.semanticBoardingPass.pass
        flight.semantics?.passengerName = nil
        let noPassenger = GooglePassConversion(
            flight, files: LintSample.semanticBoardingPass.files, options: Self.options)
        #expect(noPassenger.walletClass.type != .flight)
        #expect(noPassenger.findings.contains { $0.code == "google.fallback" && $0.message.contains("passengerName") })

        var train = LintSample.semanticBoardingPass.pass
        train.fields.transitType = .train
        train.semantics = nil
        train.fields.primaryFields = nil
        let noLeg = GooglePassConversion(train, files: LintSample.semanticBoardingPass.files, options: Self.options)
        #expect(noLeg.walletClass.type == .generic)
        #expect(noLeg.findings.contains { $0.code == "google.fallback" && $0.path == "boardingPass" })
    }

    @Test("locations become merchantLocations only for an issuer Google allowlisted")
    func merchantLocations() throws {
        let sample = LintSample.eventTicket
        #expect(sample.pass.locations?.isEmpty == false)
        let plain = GooglePassConversion(sample.pass, files: sample.files, options: Self.options)
        #expect(plain.walletObject.merchantLocations == nil)
        #expect(plain.findings.contains { $0.path == "locations" && $0.message.contains("allowlisted") })
        var options = Self.options
        options.mayUseMerchantLocations = true
        let allowed = GooglePassConversion(sample.pass, files: sample.files, options: options)
        #expect(allowed.walletObject.merchantLocations?.count == sample.pass.locations?.count)
    }

    @Test("each style becomes its Google kind; identifiers carry the issuer and only the characters Google takes")
    func kinds() throws {
        let kinds = Dictionary(
            uniqueKeysWithValues: Self.samples.map {
                ($0.name, GooglePassConversion($0.pass, files: $0.files, options: Self.options).walletClass.type)
            })
        #expect(kinds["sample eventTicket"] == .eventTicket)
        #expect(kinds["sample storeCard"] == .loyalty)
        #expect(kinds["sample posterGeneric"] == .generic)
        #expect(kinds["sample semanticBoardingPass"] == .flight)
        let conversion = GooglePassConversion(
            LintSample.eventTicket.pass, files: LintSample.eventTicket.files, options: Self.options)
        #expect(conversion.walletObject.id.hasPrefix("3388000000012345678."))
        #expect(
            conversion.walletObject.id.dropFirst(20).allSatisfy { $0.isLetter || $0.isNumber || "._-".contains($0) })
        #expect(conversion.walletObject.classId == conversion.walletClass.id)
        #expect(conversion.walletObject.barcode?.type == "QR_CODE")
        #expect(conversion.walletClass.hexBackgroundColor == "#141e28")
    }

    @Test("texts a pass localizes carry every language; the default language leads")
    func localized() throws {
        let sample = LintSample.localized
        let conversion = GooglePassConversion(sample.pass, files: sample.files, options: Self.options)
        let event = try #require(conversion.walletObject.textModulesData?.first { $0.id == "event" })
        #expect(event.header == "EVENT" && event.body == "Swift in Concert")
        let languages = event.localizedBody?.translatedValues?.map(\.language)
        #expect(languages == ["de", "ja"])
        #expect(event.localizedBody?.translatedValues?.first?.value == "Swift im Konzert")
    }

    @Test("what has no place in Google Wallet is named; a kind the pass cannot fill falls back to generic")
    func findings() throws {
        var pass = LintSample.eventTicket.pass
        pass.barcodes = [
            PassBarcode(format: .qr, message: "A"), PassBarcode(format: .interleaved2of5, message: "B"),
        ]
        pass.nfc = PassNFC(message: "TICKET-001", encryptionPublicKey: LintSample.nfcKey)
        let conversion = GooglePassConversion(pass, files: LintSample.eventTicket.files, options: Self.options)
        let paths = Set(conversion.findings.map(\.path))
        #expect(paths.isSuperset(of: ["barcodes[1]", "nfc", "locations"]))
        #expect(conversion.findings.allSatisfy { $0.code.hasPrefix("google.") })

        let noImages = GooglePassConversion(
            LintSample.storeCard.pass, files: LintSample.storeCard.files,
            options: .init(issuerID: "3388000000012345678"))
        #expect(noImages.walletClass.type == .generic)
        #expect(noImages.findings.contains { $0.code == "google.fallback" && $0.path == "storeCard" })
    }
}
