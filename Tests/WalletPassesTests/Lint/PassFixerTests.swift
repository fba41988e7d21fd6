import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletPasses

@Suite("Fixes add what older iOS needs and remove what Wallet ignores, touching nothing else")
struct PassFixerTests {
    /// The codes of the errors and warnings lint finds in `pass` with `sample`'s files.
    static func problems(_ pass: Pass, _ sample: LintSample) throws -> [String] {
        let report = PassLint.report(passJSON: try pass.encoded(), files: sample.files)
        return (report.errors + report.warnings).map(\.code)
    }

    @Test("a poster generic pass without a legacy style gets a generic one made of its fields")
    func genericFallback() throws {
        var pass = LintSample.posterGeneric.pass
        pass.json["generic"] = nil
        let (fixed, changes) = PassFixer.fix(pass)
        #expect(changes.map(\.code) == ["poster-generic.fallback"])
        #expect(fixed.style == .generic)
        #expect(fixed.fields.primaryFields?.map(\.key) == ["name"], "a generic pass shows one primary field")
        #expect(fixed.fields.secondaryFields?.map(\.key) == ["since"])
        #expect(fixed.fields.auxiliaryFields?.map(\.key) == ["club"], "the footer moves to the auxiliary row")
        #expect(fixed.posterGeneric == pass.posterGeneric)
        #expect(try Self.problems(fixed, .posterGeneric).isEmpty)
    }

    @Test("barcodes only iOS 27 draws get a QR fallback of the same message")
    func barcodeFallback() throws {
        var pass = LintSample.posterGeneric.pass
        pass.barcodes = [PassBarcode(format: .code39, message: "MEMBER1", altText: "MEMBER1")]
        let (fixed, changes) = PassFixer.fix(pass)
        #expect(changes.map(\.path) == ["barcodes[1]"])
        #expect(fixed.barcodes?.last == PassBarcode(format: .qr, message: "MEMBER1", altText: "MEMBER1"))
        #expect(try Self.problems(fixed, .posterGeneric).isEmpty)
    }

    @Test(
        "a lone relevantDate is copied into relevantDates and kept for iOS 17; entries spelled relevantDate become date"
    )
    func relevantDates() throws {
        var pass = LintSample.eventTicket.pass
        pass.json["relevantDate"] = .string("2026-12-24T20:00+01:00")
        var (fixed, changes) = PassFixer.fix(pass)
        #expect(changes.map(\.code) == ["relevance.relevant-date"])
        #expect(fixed.json["relevantDate"] == .string("2026-12-24T20:00+01:00"))
        #expect(fixed.json["relevantDates"] == .array([.object(["date": .string("2026-12-24T20:00+01:00")])]))

        pass.json["relevantDates"] = .array([.object(["relevantDate": .string("2026-12-24T20:00+01:00")])])
        (fixed, changes) = PassFixer.fix(pass)
        #expect(changes.map(\.code) == ["relevance.entry-spelling"])
        #expect(fixed.relevantDates?[0].json == ["date": .string("2026-12-24T20:00+01:00")])
        #expect(try Self.problems(fixed, .eventTicket).isEmpty)
    }

    @Test("formatting keys Wallet ignores on a field are removed, each named")
    func ignoredFormatting() throws {
        var pass = LintSample.eventTicket.pass
        pass.fields.primaryFields![0].dateStyle = .short
        pass.fields.primaryFields![0].textAlignment = .center
        pass.fields.backFields![0].numberStyle = .percent
        let (fixed, changes) = PassFixer.fix(pass)
        #expect(
            Set(changes.map(\.path)) == [
                "eventTicket.primaryFields[0].dateStyle", "eventTicket.primaryFields[0].textAlignment",
                "eventTicket.backFields[0].numberStyle",
            ])
        #expect(fixed.fields.primaryFields![0].json == LintSample.eventTicket.pass.fields.primaryFields![0].json)
        #expect(try Self.problems(fixed, .eventTicket).isEmpty)
    }

    @Test("a clean pass is left exactly as it was", arguments: LintSample.allCases)
    func cleanUntouched(_ sample: LintSample) {
        let (fixed, changes) = PassFixer.fix(sample.pass)
        #expect(changes.isEmpty)
        #expect(fixed == sample.pass)
    }
}

@Suite("Each iOS's view of a pass: the layout it picks, the barcode it shows, the keys it ignores")
struct PassRenderingTests {
    static func rendering(_ sample: LintSample, on os: IOSVersion, _ edit: (inout Pass) -> Void = { _ in }) throws
        -> PassRendering
    {
        var pass = sample.pass
        edit(&pass)
        return try #require(
            PassLint.report(passJSON: try pass.encoded(), files: sample.files).renderings.first { $0.os == os })
    }

    @Test("a poster event ticket is one from iOS 18; iOS 17 shows the event ticket and ignores the new keys")
    func posterEventTicket() throws {
        let old = try Self.rendering(.posterEventTicket, on: .iOS17)
        #expect(old.layout == "event ticket")
        #expect(
            old.ignoredKeys.contains("preferredStyleSchemes") && old.ignoredKeys.contains("semantics.venueRegionName"))
        #expect(old.ignoredKeys.contains("bagPolicyURL"))
        let new = try Self.rendering(.posterEventTicket, on: .iOS18)
        #expect(new.layout == "poster event ticket" && new.fallbackReason == nil)
        #expect(!new.ignoredKeys.contains("bagPolicyURL"))
        let missing = try Self.rendering(.posterEventTicket, on: .iOS26) { $0.semantics?.venueName = nil }
        #expect(missing.layout == "event ticket" && missing.fallbackReason == "missing venueName")
        #expect(missing.ignoredKeys.contains("bagPolicyURL"), "the event guide's links need the poster layout")
    }

    @Test("a semantic boarding pass is one from iOS 26, unless it misses a tag or is not an air journey")
    func semanticBoardingPass() throws {
        #expect(try Self.rendering(.semanticBoardingPass, on: .iOS18).layout == "boarding pass")
        #expect(try Self.rendering(.semanticBoardingPass, on: .iOS26).layout == "semantic boarding pass")
        let train = try Self.rendering(.semanticBoardingPass, on: .iOS27) { $0.fields.transitType = .train }
        #expect(train.layout == "boarding pass")
        #expect(train.fallbackReason?.contains("PKTransitTypeAir") == true)
        #expect(train.ignoredKeys.contains("upgradeURL"))
    }

    @Test("a poster generic pass and its new barcode are iOS 27's; earlier iOS shows generic with the QR fallback")
    func posterGeneric() throws {
        let old = try Self.rendering(.posterGeneric, on: .iOS26)
        #expect(old.layout == "generic" && old.barcode == "PKBarcodeFormatQR")
        #expect(old.ignoredKeys == ["featuredActions", "posterGeneric"])
        let new = try Self.rendering(.posterGeneric, on: .iOS27)
        #expect(new.layout == "poster generic" && new.barcode == "PKBarcodeFormatEAN13" && new.ignoredKeys.isEmpty)
    }

    @Test("keys no iOS documents are ignored by every iOS, at any depth")
    func unknownKeys() throws {
        let rendering = try Self.rendering(.eventTicket, on: .iOS27) {
            $0.json["futureFeature"] = .bool(true)
            $0.fields.primaryFields![0].json["futureFieldKey"] = .number(1)
        }
        #expect(rendering.ignoredKeys == ["eventTicket.primaryFields[0].futureFieldKey", "futureFeature"])
    }
}
