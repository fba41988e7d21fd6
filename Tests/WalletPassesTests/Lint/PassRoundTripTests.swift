import Foundation
import PropertyBased
import Testing
@testable import WalletDocuments
@testable import WalletPasses

@Suite("Decoding then encoding pass.json loses nothing: every key, known or not, at every depth")
struct PassRoundTripTests {
    /// `json` decoded as a pass and encoded again, parsed back for comparison.
    static func roundTrip(_ json: Data) throws -> (pass: Pass, again: JSONValue) {
        let pass = try Pass(json: json)
        return (pass, try JSONDecoder().decode(JSONValue.self, from: try pass.encoded()))
    }

    @Test("generated passes of every style and key come back as they were")
    func generated() async throws {
        await propertyCheck(count: 300, input: PassJSONGenerator.documents) { document in
            let json = try JSONEncoder().encode(document)
            let (pass, again) = try Self.roundTrip(json)
            #expect(again == .object(document))
            #expect(pass.json == document)
            #expect(try Pass(json: try pass.encoded()) == pass)
        }
    }

    @Test("typed properties read what they wrote, and setting one to nil removes its key")
    func typedProperties() throws {
        var pass = LintSample.posterEventTicket.pass
        pass.semantics?.venueRoom = "Hall B"
        pass.semantics?.seats?[0].seatSectionColor = PassColor(red: 1, green: 2, blue: 3)
        pass.upcomingPassInformation = [PassUpcomingEntry(identifier: "d1", name: "Day 1")]
        pass.upcomingPassInformation?[0].urls = PassUpcomingEntry.URLs(json: [:])
        pass.upcomingPassInformation?[0].urls?.bagPolicyURL = "https://venue.example.com/bags"
        let again = try Pass(json: try pass.encoded())
        #expect(again.semantics?.venueRoom == "Hall B")
        #expect(again.semantics?.seats?[0].seatSectionColor == PassColor(red: 1, green: 2, blue: 3))
        #expect(again.upcomingPassInformation?[0].urls?.bagPolicyURL == "https://venue.example.com/bags")
        #expect(again.upcomingPassInformation?[0].json["URLs"] != nil, "Apple spells the key URLs")
        pass.semantics?.venueRoom = nil
        #expect(pass.semantics?.json["venueRoom"] == nil)
    }

    @Test("a value of another type than the key holds reads as nil and is kept as it was")
    func mistypedValueKept() throws {
        let json = #"{"formatVersion":1,"generic":{},"semantics":{"flightNumber":"815","futureTag":{"x":[1,2]}}}"#
        let (pass, again) = try Self.roundTrip(Data(json.utf8))
        #expect(pass.semantics?.flightNumber == nil)
        #expect(pass.semantics?.additionalKeys == ["futureTag": .object(["x": .array([.number(1), .number(2)])])])
        #expect(again == (try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))))
    }

    @Test("dates keep the text they were written with; a typed date is written in UTC")
    func dates() throws {
        let json = #"{"formatVersion":1,"generic":{},"relevantDates":[{"date":"2025-12-09T13:00-07:00"}]}"#
        var pass = try Pass(json: Data(json.utf8))
        #expect(pass.relevantDates?[0].date == Date(timeIntervalSince1970: 1_765_310_400))
        #expect(pass.json["relevantDates"] == .array([.object(["date": .string("2025-12-09T13:00-07:00")])]))
        pass.expirationDate = Date(timeIntervalSince1970: 1_765_310_400)
        #expect(pass.json["expirationDate"] == .string("2025-12-09T20:00:00Z"))
    }

    @Test("the passes shaped like Apple's documented examples round-trip and lint without errors")
    func appleDocumented() throws {
        for (name, text) in AppleDocumentedPasses.all {
            let json = Data(text.utf8)
            let original = try JSONDecoder().decode(JSONValue.self, from: json)
            let (_, again) = try Self.roundTrip(json)
            #expect(again == original, "\(name)")
            let errors = PassLint.report(passJSON: json, files: nil).errors
            #expect(errors.isEmpty, "\(name): \(errors)")
        }
    }
}
