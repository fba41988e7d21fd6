import Foundation
import Testing

@testable import WalletPasses

@Suite("Google Wallet: a pass made into a class and an object Google's API takes, naming what it drops")
struct GooglePassConversionTests {
    static let options = GooglePassConversion.Options(
        issuerID: "3388000000012345678", imageBaseURL: "https://passes.example.com/images/PASS-1")

    /// The JSON Google's API is sent: the class and the object.
    static func json(_ conversion: GooglePassConversion) throws -> (walletClass: [String: Any], object: [String: Any]) {
        let encoder = JSONEncoder()
        func object(_ value: some Encodable) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: try encoder.encode(value)) as? [String: Any])
        }
        return (try object(conversion.walletClass), try object(conversion.walletObject))
    }

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
            if: DiscoverySchema.path != nil, "set COFFER_TEST_GOOGLE_DISCOVERY to walletobjects.v1.json (.ci/run does)")
    )
    func validAgainstDiscovery() throws {
        let schema = try DiscoverySchema(contentsOf: DiscoverySchema.path!)
        let wrong: [String: Any] = ["id": 7, "classId": "c", "state": "GONE", "colour": "red", "cardTitle": [:]]
        #expect(
            Set(schema.problems(wrong, as: "GenericObject")).isSuperset(of: [
                "GenericObject.id is not a string", "GenericObject.state is 'GONE', not one of the enumeration",
                "GenericObject.colour is not a property of the schema", "GenericObject.header is required",
            ]), "the validator finds what is wrong")
        #expect(Self.samples.count >= 10)
        for sample in Self.samples {
            let conversion = GooglePassConversion(sample.pass, files: sample.files, options: Self.options)
            let (walletClass, object) = try Self.json(conversion)
            let names = conversion.walletClass.type.schemaNames
            let problems =
                schema.problems(walletClass, as: names.walletClass) + schema.problems(object, as: names.walletObject)
            #expect(problems.isEmpty, "\(sample.name) (revision \(schema.revision)): \(problems)")
        }
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
        #expect(paths.isSuperset(of: ["barcodes[1]", "nfc", "locations[0].relevantText"]))
        #expect(conversion.findings.allSatisfy { $0.code.hasPrefix("google.") })

        let noImages = GooglePassConversion(
            LintSample.storeCard.pass, files: LintSample.storeCard.files,
            options: .init(issuerID: "3388000000012345678"))
        #expect(noImages.walletClass.type == .generic)
        #expect(noImages.findings.contains { $0.code == "google.fallback" && $0.path == "storeCard" })
    }
}
