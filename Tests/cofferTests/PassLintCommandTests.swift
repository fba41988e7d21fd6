import CofferTestSupport
import Foundation
import Testing

@Suite("coffer pass lint: findings with their paths, the view of each iOS, safe fixes, templates")
struct PassLintCommandTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func lint(_ arguments: String...) throws -> ChildProcess.Outcome {
        try CofferCLI.run(["pass", "lint"] + arguments)
    }

    /// A copy of the example pass `name` in the test's folder, with `pass.json` changed by `edit`.
    func copy(_ name: String, editing edit: (inout [String: Any]) -> Void = { _ in }) throws -> URL {
        let copy = directory.appending(name)
        try FileManager.default.copyItem(at: SourceTree.appending("Examples/Passes/\(name)"), to: copy)
        let file = copy.appendingPathComponent("pass.json")
        var object = try JSONSerialization.jsonObject(with: try Data(contentsOf: file)) as! [String: Any]
        edit(&object)
        try JSONSerialization.data(withJSONObject: object).write(to: file)
        return copy
    }

    @Test(
        "every example pass has no errors or warnings",
        arguments: ["EventTicket.pass", "PosterEventTicket.pass", "SemanticBoardingPass.pass", "PosterGeneric.pass"])
    func examplesAreClean(_ name: String) throws {
        let outcome = try lint(SourceTree.appending("Examples/Passes/\(name)").path, "--strict")
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("0 errors, 0 warnings"))
    }

    @Test("each iOS's view: the layout it picks, and what it ignores")
    func renderings() throws {
        let outcome = try lint(SourceTree.appending("Examples/Passes/PosterGeneric.pass").path)
        #expect(
            outcome.output.contains(
                "iOS 26: generic, barcode PKBarcodeFormatQR; ignores featuredActions, posterGeneric"))
        #expect(outcome.output.contains("iOS 27: poster generic, barcode PKBarcodeFormatEAN13"))
        let poster = try copy("PosterEventTicket.pass") { pass in
            var semantics = pass["semantics"] as! [String: Any]
            semantics["venueRoom"] = nil
            pass["semantics"] = semantics
        }
        let fallback = try lint(poster.path)
        #expect(fallback.output.contains("iOS 18: event ticket (missing venueRoom)"))
    }

    @Test("each language's view of a localized pass; a language missing an entry is a warning naming the key")
    func languages() throws {
        let outcome = try lint(SourceTree.appending("Examples/Passes/EventTicket.pass").path)
        #expect(outcome.output.contains("How each language reads:"))
        #expect(outcome.output.contains("  ja:\n    eventTicket.headerFields[0].label: 座席"), "\(outcome.output)")
        #expect(outcome.output.contains("eventTicket.primaryFields[0].value: Swift im Konzert"))

        let copy = try copy("EventTicket.pass")
        let german = copy.appendingPathComponent("de.lproj/pass.strings")
        try Data("\"EVENT\" = \"VERANSTALTUNG\";\n".utf8).write(to: german)
        let missing = try lint(copy.path, "--strict")
        #expect(missing.status != 0)
        #expect(missing.output.contains("warning[strings.missing] de.lproj/pass.strings: has no entry for 'SEAT'"))
        #expect(missing.output.contains("eventTicket.headerFields[0].label: SEAT  (no entry: shows the key)"))
    }

    @Test("errors exit 1 and name their path; warnings exit 1 only with --strict")
    func exitStatus() throws {
        let broken = try copy("EventTicket.pass") { pass in
            var ticket = pass["eventTicket"] as! [String: Any]
            var header = ticket["headerFields"] as! [[String: Any]]
            header[0]["changeMessage"] = "Your seat changed"
            ticket["headerFields"] = header
            pass["eventTicket"] = ticket
        }
        let failed = try lint(broken.path)
        #expect(failed.status == 1)
        #expect(failed.output.contains("error[field.change-message] eventTicket.headerFields[0].changeMessage"))
        #expect(failed.errorOutput.contains("1 error"))

        let warned = try copy("PosterGeneric.pass") { $0["logoText"] = String(repeating: "x", count: 30) }
        #expect(try lint(warned.path).status == 0)
        #expect(try lint(warned.path, "--strict").status == 1)
    }

    @Test("--json prints an array of findings with code, severity, path and message")
    func json() throws {
        let broken = try copy("PosterGeneric.pass") { $0["generic"] = nil }
        let outcome = try lint(broken.path, "--json")
        #expect(outcome.status == 1)
        let findings = try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as! [[String: String]]
        let fallback = try #require(findings.first { $0["code"] == "poster-generic.fallback" })
        #expect(fallback["severity"] == "error" && fallback["path"] == "generic")
        #expect(fallback["fix"]?.contains("generic") == true)
    }

    @Test("--fix adds what older iOS needs, says what it changed, and leaves a clean pass")
    func fix() throws {
        let broken = try copy("PosterGeneric.pass") { pass in
            pass["generic"] = nil
            pass["barcodes"] = [(pass["barcodes"] as! [Any])[0]]
            pass["relevantDate"] = "2026-12-24T09:00+01:00"
        }
        let fixed = try lint(broken.path, "--fix")
        #expect(fixed.status == 0, "\(fixed.output)\(fixed.errorOutput)")
        for code in ["poster-generic.fallback", "barcode.fallback", "relevance.relevant-date"] {
            #expect(fixed.errorOutput.contains("fixed [\(code)]"), "\(fixed.errorOutput)")
        }
        #expect(try lint(broken.path, "--strict").status == 0)
        let pass =
            try JSONSerialization.jsonObject(
                with: try Data(contentsOf: broken.appendingPathComponent("pass.json"))) as! [String: Any]
        #expect(pass["relevantDate"] as? String == "2026-12-24T09:00+01:00", "kept for iOS 17")
        #expect(try lint(broken.path, "--fix").errorOutput.contains("nothing to fix"))
    }

    @Test("a Pass Designer template, as a folder or a ZIP of one, is linted and built without tooling.json")
    func template() throws {
        let template = directory.appending("Membership.pkpasstemplate")
        try FileManager.default.copyItem(at: SourceTree.appending("Examples/Passes/PosterGeneric.pass"), to: template)
        try Data(#"{"designerVersion":"1.0","automaticallyGenerateCompatiblePass":true}"#.utf8)
            .write(to: template.appendingPathComponent("tooling.json"))
        #expect(try lint(template.path, "--strict").status == 0)

        let zip = directory.appending("Membership.zip")
        let zipped = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.zipScript, template.path, zip.path])
        try #require(zipped.status == 0, "\(zipped.errorOutput)")
        #expect(try lint(zip.path, "--strict").status == 0)

        let identity = directory.appending("identity")
        let made = try CofferCLI.run(
            ["pass", "dev-identity", identity.path], environment: ["COFFER_P12_PASSPHRASE": "p"])
        try #require(made.status == 0)
        let output = directory.appending("membership.pkpass")
        let build = try CofferCLI.run(
            [
                "pass", "build", zip.path, "--certificate", identity.appendingPathComponent("pass-type.p12").path,
                "-o", output.path,
            ],
            environment: ["COFFER_P12_PASSPHRASE": "p"])
        #expect(build.status == 0, "\(build.errorOutput)")
        let listing = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["unzip", "-Z1", output.path])
        #expect(listing.output.contains("pass.json") && !listing.output.contains("tooling.json"))
    }

    @Test("coffer pass build runs the same checks: errors refuse the pass and name their path, warnings are printed")
    func buildRefusesErrors() throws {
        let identity = directory.appending("identity")
        let made = try CofferCLI.run(
            ["pass", "dev-identity", identity.path], environment: ["COFFER_P12_PASSPHRASE": "p"])
        try #require(made.status == 0)
        func build(_ folder: URL) throws -> ChildProcess.Outcome {
            try CofferCLI.run(
                [
                    "pass", "build", folder.path, "--certificate",
                    identity.appendingPathComponent("pass-type.p12").path,
                    "-o", directory.appending(folder.lastPathComponent + ".pkpass").path,
                ],
                environment: ["COFFER_P12_PASSPHRASE": "p"])
        }
        let broken = try copy("PosterGeneric.pass") { $0["generic"] = nil }
        let refused = try build(broken)
        #expect(refused.status != 0)
        #expect(refused.errorOutput.contains("generic: is required beside posterGeneric"), "\(refused.errorOutput)")
        #expect(!FileManager.default.fileExists(atPath: directory.appending("PosterGeneric.pass.pkpass").path))

        let warned = try copy("EventTicket.pass") { $0["logoText"] = String(repeating: "x", count: 30) }
        let built = try build(warned)
        #expect(built.status == 0, "\(built.errorOutput)")
        #expect(built.errorOutput.contains("warning[field.text-length] logoText"))
    }

    @Test("--fix refuses a .pkpass or a ZIP: they cannot change in place")
    func fixNeedsFolder() throws {
        let zip = directory.appending("t.zip")
        let zipped = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", Self.zipScript, SourceTree.appending("Examples/Passes/EventTicket.pass").path, zip.path])
        try #require(zipped.status == 0)
        let outcome = try lint(zip.path, "--fix")
        #expect(outcome.status == 2)
        #expect(outcome.errorOutput.contains("--fix changes a folder's pass.json"))
    }

    /// Zips a folder into a ZIP whose entries sit in one folder named like it, as Finder's Compress makes them.
    static let zipScript = """
        import os, sys, zipfile
        source, target = sys.argv[1], sys.argv[2]
        with zipfile.ZipFile(target, 'w') as archive:
            for root, _, names in os.walk(source):
                for name in names:
                    path = os.path.join(root, name)
                    archive.write(path, os.path.join(os.path.basename(source), os.path.relpath(path, source)))
        """
}

extension PassLintCommandTests {
    @Test("coffer pass google prints the Google Wallet class, object and findings; a bad issuer ID exits 2")
    func google() throws {
        let outcome = try CofferCLI.run([
            "pass", "google", SourceTree.appending("Examples/Passes/EventTicket.pass").path, "--issuer-id",
            "3388000000012345678", "--image-base-url", "https://passes.example.com/images",
        ])
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        #expect(printed["kind"] as? String == "eventTicket")
        let object = try #require(printed["object"] as? [String: Any])
        #expect((object["id"] as? String)?.hasPrefix("3388000000012345678.") == true)
        let modules = try #require(object["textModulesData"] as? [[String: Any]])
        let event = try #require(modules.first { $0["id"] as? String == "event" })
        let translations = (event["localizedBody"] as? [String: Any])?["translatedValues"] as? [[String: String]]
        #expect(translations?.contains(["language": "ja", "value": "Swift コンサート"]) == true)
        let walletClass = try #require(printed["class"] as? [String: Any])
        #expect((walletClass["logo"] as? [String: Any]) != nil)

        let bad = try CofferCLI.run([
            "pass", "google", SourceTree.appending("Examples/Passes/EventTicket.pass").path, "--issuer-id", "acme",
        ])
        #expect(bad.status == 2)
        #expect(bad.errorOutput.contains("--issuer-id"))

        let key = directory.appending("account.pem")
        #expect(
            try OpenSSL.run("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key.path).status
                == 0)
        let account = directory.appending("account.json")
        try JSONSerialization.data(withJSONObject: [
            "client_email": "wallet@coffer-test.iam.gserviceaccount.com",
            "private_key": try String(contentsOf: key, encoding: .utf8),
        ]).write(to: account)
        let signed = try CofferCLI.run([
            "pass", "google", SourceTree.appending("Examples/Passes/EventTicket.pass").path, "--service-account",
            account.path, "--origin", "https://tickets.example.com",
        ])
        #expect(signed.status == 0, "\(signed.errorOutput)")
        let link = try #require(try JSONSerialization.jsonObject(with: Data(signed.output.utf8)) as? [String: Any])
        #expect((link["save_link"] as? String)?.hasPrefix("https://pay.google.com/gp/v/save/") == true)
        #expect(link["skinny"] as? Bool != nil)
        #expect(!signed.output.contains("PRIVATE KEY"))
    }
}
