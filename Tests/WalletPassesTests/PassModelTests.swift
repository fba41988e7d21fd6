import Crypto
import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletPasses

@Suite("pass.json is modelled completely and validated by key")
struct PassModelTests {
    @Test("a rich pass.json round-trips, keeping keys the model does not name")
    func roundTrip() throws {
        let json = #"""
            {
              "formatVersion": 1, "passTypeIdentifier": "pass.com.example.board", "teamIdentifier": "A1B2C3D4E5",
              "serialNumber": "BP-1", "organizationName": "Example Air", "description": "Boarding pass",
              "boardingPass": {
                "transitType": "PKTransitTypeAir",
                "primaryFields": [{"key": "origin", "value": "SFO", "label": "San Francisco"}],
                "auxiliaryFields": [{"key": "boards", "value": "2026-12-24T08:30:00Z", "dateStyle": "PKDateStyleNone",
                                     "timeStyle": "PKDateStyleShort", "isRelative": true}],
                "backFields": [{"key": "seat", "value": 23, "numberStyle": "PKNumberStyleDecimal",
                                "textAlignment": "PKTextAlignmentRight", "changeMessage": "Seat is now %@"}]
              },
              "barcode": {"format": "PKBarcodeFormatPDF417", "message": "M1DOE", "messageEncoding": "iso-8859-1"},
              "barcodes": [{"format": "PKBarcodeFormatAztec", "message": "M1DOE", "messageEncoding": "utf-8"}],
              "beacons": [{"proximityUUID": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "major": 1, "minor": 2}],
              "relevantDate": "2026-12-24T08:00:00Z",
              "relevantDates": [{"startDate": "2026-12-24T07:00:00Z", "endDate": "2026-12-24T09:00:00Z"}],
              "expirationDate": "2026-12-25T00:00:00.250Z", "voided": false,
              "nfc": {"message": "hello", "requiresAuthentication": true},
              "sharingProhibited": true, "userInfo": {"tier": "gold", "points": [1, 2, null]},
              "associatedStoreIdentifiers": [123456], "appLaunchURL": "example://ticket/1",
              "fidoProfile": {"relyingPartyIdentifier": "example.com", "accountHash": "abc123"},
              "issuerBindingData": {"issuerBindingData": "0a1b", "learnMoreURL": "https://example.com/binding"},
              "semantics": {"flightNumber": 815}, "labelColor": "rgb(1, 2, 3)"
            }
            """#
        let pass = try Pass(json: Data(json.utf8))
        #expect(pass.style == .boardingPass)
        #expect(pass.fields.transitType == .air)
        #expect(pass.fields.backFields?.first?.value == .number(23))
        #expect(pass.fields.auxiliaryFields?.first?.isRelative == true)
        #expect(pass.beacons?.first?.major == 1)
        #expect(pass.labelColor == PassColor(red: 1, green: 2, blue: 3))
        #expect(pass.semantics?.flightNumber == 815)
        #expect(pass.additionalKeys.isEmpty)
        #expect(pass.fidoProfile?.accountHash == "abc123")
        #expect(
            pass.issuerBindingData
                == PassIssuerBindingData(issuerBindingData: "0a1b", learnMoreURL: "https://example.com/binding"))
        #expect(pass.expirationDate != nil)
        let again = try Pass(json: try pass.encoded())
        #expect(again == pass)
        let text = String(decoding: try pass.encoded(), as: UTF8.self)
        #expect(text.contains(#""boardingPass""#) && !text.contains(#"\/"#))
    }

    @Test("issuerBindingData is written as the dictionary PassKit reads; an older bare string is upgraded")
    func issuerBindingDataForm() throws {
        let base =
            #""formatVersion":1,"passTypeIdentifier":"pass.a","teamIdentifier":"T","serialNumber":"1","organizationName":"O","description":"D","generic":{},"fidoProfile":{"relyingPartyIdentifier":"example.com","accountHash":"ab"}"#
        let legacy = try Pass(json: Data(#"{\#(base),"issuerBindingData":"0A1b"}"#.utf8))
        #expect(legacy.issuerBindingData == PassIssuerBindingData(issuerBindingData: "0A1b"))
        let written = try JSONSerialization.jsonObject(with: try legacy.encoded()) as? [String: Any]
        #expect(written?["issuerBindingData"] as? [String: String] == ["issuerBindingData": "0A1b"])
        #expect(legacy.lint().findings.filter { $0.path.hasPrefix("issuerBindingData") }.isEmpty)

        let noHex = try Pass(json: Data(#"{\#(base),"issuerBindingData":{"learnMoreURL":"https://example.com"}}"#.utf8))
        #expect(
            noHex.lint().errors.contains {
                $0.code == "key.required" && $0.path == "issuerBindingData.issuerBindingData"
            })
        let number = try Pass(json: Data(#"{\#(base),"issuerBindingData":42}"#.utf8))
        #expect(number.issuerBindingData == nil)
        #expect(number.lint().errors.contains { $0.code == "key.type" && $0.path == "issuerBindingData" })
    }

    @Test("exactly one style key is required")
    func oneStyle() throws {
        let base =
            #""formatVersion":1,"passTypeIdentifier":"pass.a","teamIdentifier":"T","serialNumber":"1","organizationName":"O","description":"D""#
        #expect(throws: DecodingError.self) { try Pass(json: Data("{\(base)}".utf8)) }
        #expect(throws: DecodingError.self) { try Pass(json: Data(#"{\#(base),"coupon":{},"generic":{}}"#.utf8)) }
        #expect(try Pass(json: Data(#"{\#(base),"storeCard":{}}"#.utf8)).style == .storeCard)
    }

    @Test("a color that is not rgb(r, g, b) is kept as read, and lint names the text")
    func badColor() throws {
        let json =
            #"{"formatVersion":1,"passTypeIdentifier":"pass.a","teamIdentifier":"T","serialNumber":"1","organizationName":"O","description":"D","generic":{},"backgroundColor":"rgb(300, 0, 0)"}"#
        let pass = try Pass(json: Data(json.utf8))
        #expect(pass.backgroundColor == nil)
        #expect(pass.json["backgroundColor"] == .string("rgb(300, 0, 0)"))
        #expect(pass.lint().errors.contains { $0.code == "value.color" && $0.message.contains("rgb(300, 0, 0)") })
        #expect(PassColor(parsing: "rgb(0,128,255)") == PassColor(red: 0, green: 128, blue: 255))
        #expect(PassColor(parsing: "#ff8000") == PassColor(red: 255, green: 128, blue: 0))
        #expect(PassColor(parsing: "red") == nil)
    }

    @Test("the sample ticket is valid")
    func sampleIsValid() {
        #expect(Fixtures.pass().lint().errors.isEmpty)
    }

    @Test(
        "validation names the offending key",
        arguments: [
            Breakage("authenticationToken") { pass in pass.authenticationToken = "short" },
            Breakage("webServiceURL") { pass in pass.webServiceURL = "http://insecure.example.com" },
            Breakage("authenticationToken") { pass in pass.authenticationToken = nil },
            Breakage("serialNumber") { pass in pass.serialNumber = " " },
            Breakage("passTypeIdentifier") { pass in pass.passTypeIdentifier = "com.example" },
            Breakage("formatVersion") { pass in pass.formatVersion = 2 },
            Breakage("eventTicket.secondaryFields[1].key") { pass in pass.fields.secondaryFields![1].key = "date" },
            Breakage("eventTicket.secondaryFields[1].currencyCode") { pass in
                pass.fields.secondaryFields![1].currencyCode = "euro"
            },
            Breakage("locations[0].latitude") { pass in pass.locations![0].latitude = 91 },
            Breakage("nfc.message") { pass in pass.nfc = PassNFC(message: String(repeating: "x", count: 65)) },
            Breakage("nfc.encryptionPublicKey") { pass in
                pass.nfc = PassNFC(
                    message: "m", encryptionPublicKey: Data(repeating: 4, count: 91).base64EncodedString())
            },
            Breakage("nfc.encryptionPublicKey") { pass in
                pass.nfc = PassNFC(
                    message: "m",
                    encryptionPublicKey: P384.KeyAgreement.PrivateKey().publicKey.derRepresentation
                        .base64EncodedString())
            },
            Breakage("boardingPass.transitType") { pass in pass.style = .boardingPass },
            Breakage("eventTicket.transitType") { pass in pass.fields.transitType = .bus },
            Breakage("beacons[0].proximityUUID") { pass in pass.beacons = [PassBeacon(proximityUUID: "nope")] },
            Breakage("issuerBindingData.issuerBindingData") { pass in
                pass.fidoProfile = FIDOProfile(relyingPartyIdentifier: "example.com", accountHash: "ab")
                pass.issuerBindingData = PassIssuerBindingData(issuerBindingData: "xyz")
            },
            Breakage("issuerBindingData.issuerBindingData") { pass in
                pass.fidoProfile = FIDOProfile(relyingPartyIdentifier: "example.com", accountHash: "ab")
                pass.issuerBindingData = PassIssuerBindingData(issuerBindingData: "\u{FF10}\u{FF11}")
            },
            Breakage("issuerBindingData.learnMoreURL") { pass in
                pass.fidoProfile = FIDOProfile(relyingPartyIdentifier: "example.com", accountHash: "ab")
                pass.issuerBindingData = PassIssuerBindingData(
                    issuerBindingData: "0a", learnMoreURL: "http://example.com/binding")
            },
            Breakage("issuerBindingData") { pass in
                pass.fidoProfile = nil
                pass.issuerBindingData = PassIssuerBindingData(issuerBindingData: "0a")
            },
        ])
    func validationNamesKey(_ breakage: Breakage) {
        var pass = Fixtures.pass()
        breakage.apply(&pass)
        let errors = pass.lint().errors
        #expect(errors.contains { $0.path == breakage.key }, "\(errors)")
        #expect(throws: WalletDocumentError.self) { try pass.validate() }
    }

    @Test("an NFC encryption key that parses as a P-256 SubjectPublicKeyInfo is accepted")
    func nfcKeyAccepted() throws {
        var pass = Fixtures.pass()
        let key = P256.KeyAgreement.PrivateKey().publicKey
        pass.nfc = PassNFC(
            message: "m", encryptionPublicKey: key.derRepresentation.base64EncodedString(), requiresAuthentication: true
        )
        try pass.validate()
    }
}

/// One way to break a valid pass, and the key validation must name.
struct Breakage: Sendable, CustomTestStringConvertible {
    let key: String
    let apply: @Sendable (inout Pass) -> Void

    init(_ key: String, _ apply: @escaping @Sendable (inout Pass) -> Void) {
        self.key = key
        self.apply = apply
    }

    var testDescription: String { key }
}
