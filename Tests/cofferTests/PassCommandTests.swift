import CofferTestSupport
import Foundation
import Testing

@Suite("coffer pass, from a development identity to a verified .pkpass", .serialized)
struct PassCommandTests {
    let directory: TemporaryDirectory
    var identity: URL { directory.appending("identity") }
    static let examplePass = SourceTree.appending("Examples/Passes/EventTicket.pass")

    init() throws {
        directory = try TemporaryDirectory()
        let made = try CofferCLI.run(
            ["pass", "dev-identity", identity.path], environment: ["COFFER_P12_PASSPHRASE": "dev-p12-pass"])
        try #require(made.status == 0, "\(made.errorOutput)")
    }

    @discardableResult
    func coffer(_ arguments: String..., p12Passphrase: String? = "dev-p12-pass") throws -> ChildProcess.Outcome {
        try CofferCLI.run(arguments, environment: p12Passphrase.map { ["COFFER_P12_PASSPHRASE": $0] } ?? [:])
    }

    @Test("dev-identity, build and verify work together; openssl agrees")
    func buildAndVerify() throws {
        let output = directory.appending("ticket.pkpass").path
        let build = try coffer(
            "pass", "build", Self.examplePass.path, "--certificate",
            identity.appendingPathComponent("pass-type.p12").path,
            "-o", output)
        #expect(build.status == 0, "\(build.errorOutput)")
        let verify = try coffer("pass", "verify", output, "--root", identity.appendingPathComponent("root.pem").path)
        #expect(verify.status == 0, "\(verify.errorOutput)")
        #expect(verify.output.contains("serial EXAMPLE-0001"))

        let openssl = try OpenSSL.verify(
            pkpass: try Data(contentsOf: URL(fileURLWithPath: output)),
            root: try Data(contentsOf: identity.appendingPathComponent("root.pem")), in: directory
        ).outcome
        #expect(openssl.status == 0, "\(openssl.errorOutput)")
    }

    @Test("verifying against another root exits 3 and names the failed check")
    func wrongRoot() throws {
        let output = directory.appending("ticket.pkpass").path
        try coffer(
            "pass", "build", Self.examplePass.path, "--certificate",
            identity.appendingPathComponent("pass-type.p12").path,
            "-o", output)
        let other = directory.appending("other")
        try coffer("pass", "dev-identity", other.path)
        let verify = try coffer("pass", "verify", output, "--root", other.appendingPathComponent("root.pem").path)
        #expect(verify.status == 3)
        #expect(verify.errorOutput.contains("does not chain to the trust root"))
    }

    @Test("the PEM certificate with its key works too, and issuer-data prints a verifiable pair")
    func issuerData() throws {
        let p12 = identity.appendingPathComponent("pass-type.p12").path
        let keyPEM = directory.appending("key.pem").path
        _ = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            ["pkcs12", "-in", p12, "-nocerts", "-nodes", "-passin", "pass:dev-p12-pass", "-out", keyPEM])
        let result = try coffer(
            "pass", "issuer-data", "--certificate", identity.appendingPathComponent("pass-type.pem").path, "--key",
            keyPEM,
            "--wwdr", identity.appendingPathComponent("wwdr.pem").path, "--session", "tag-42", "--callback",
            "https://wallet.example.com/api/v2/in_app_provisioning/callback", "--account-hash", "acct-1",
            p12Passphrase: nil)
        #expect(result.status == 0, "\(result.errorOutput)")
        let pair = try JSONDecoder().decode([String: String].self, from: result.standardOutput)
        let data = try #require(pair["issuer_data"].flatMap { Data(base64Encoded: $0) })
        let binding = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(binding["sessionIdentifier"] as? String == "tag-42")
        #expect(
            (binding["fidoProfile"] as? [String: Any])?["relyingPartyIdentifier"] as? String == "wallet.example.com")
        try Data(base64Encoded: pair["signature"]!)!.write(to: directory.appending("sig.der"))
        try data.write(to: directory.appending("issuer.json"))
        let openssl = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            [
                "cms", "-verify", "-binary", "-inform", "DER", "-in", directory.appending("sig.der").path, "-content",
                directory.appending("issuer.json").path, "-CAfile", identity.appendingPathComponent("root.pem").path,
                "-purpose", "any", "-out", "/dev/null",
            ])
        #expect(openssl.status == 0, "\(openssl.errorOutput)")
    }

    @Test("a wrong .p12 passphrase exits 3; a missing one, or a PEM without --key, exits 2")
    func identityErrors() throws {
        let p12 = identity.appendingPathComponent("pass-type.p12").path
        let out = directory.appending("x.pkpass").path
        #expect(
            try coffer("pass", "build", Self.examplePass.path, "--certificate", p12, "-o", out, p12Passphrase: "bad")
                .status == 3)
        #expect(
            try coffer("pass", "build", Self.examplePass.path, "--certificate", p12, "-o", out, p12Passphrase: nil)
                .status == 2)
        let pem = identity.appendingPathComponent("pass-type.pem").path
        #expect(try coffer("pass", "build", Self.examplePass.path, "--certificate", pem, "-o", out).status == 2)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("import-identity keeps the identity in the encrypted store; build --identity signs with it")
    func storedIdentity() throws {
        let store = directory.appending("store").path
        let environment = [
            "COFFER_P12_PASSPHRASE": "dev-p12-pass", "COFFER_PASSPHRASE": "store-pass",
            "COFFER_INSECURE_TEST_PBKDF2_ITERATIONS": "1000",
        ]
        let coffer = try ChildProcess.executable(named: "coffer")
        let imported = try ChildProcess.run(
            coffer,
            [
                "pass", "import-identity", "wallet/dev", "--certificate",
                identity.appendingPathComponent("pass-type.p12").path,
                "--store", store,
            ],
            environment: environment)
        #expect(imported.status == 0, "\(imported.errorOutput)")
        let output = directory.appending("stored.pkpass").path
        let build = try ChildProcess.run(
            coffer,
            ["pass", "build", Self.examplePass.path, "--identity", "wallet/dev", "--store", store, "-o", output],
            environment: ["COFFER_PASSPHRASE": "store-pass"])
        #expect(build.status == 0, "\(build.errorOutput)")
        let verify = try self.coffer(
            "pass", "verify", output, "--root", identity.appendingPathComponent("root.pem").path)
        #expect(verify.status == 0)
        let wrong = try ChildProcess.run(
            coffer,
            ["pass", "build", Self.examplePass.path, "--identity", "wallet/dev", "--store", store, "-o", output + "2"],
            environment: ["COFFER_PASSPHRASE": "wrong"])
        #expect(wrong.status == 3)
    }

    @Test("an invalid pass directory is refused with the offending key, and nothing is written")
    func invalidPass() throws {
        let broken = directory.appending("broken.pass")
        try FileManager.default.copyItem(at: Self.examplePass, to: broken)
        try FileManager.default.removeItem(at: broken.appendingPathComponent("icon.png"))
        let out = directory.appending("broken.pkpass").path
        let result = try coffer(
            "pass", "build", broken.path, "--certificate", identity.appendingPathComponent("pass-type.p12").path, "-o",
            out)
        #expect(result.status == 4)
        #expect(result.errorOutput.contains("icon.png"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A .pkpass built by `coffer pass build` whose signature is replaced by one `openssl cms -sign` makes with
    /// `certificate`/`key` (PEM) and `chain`, re-zipped with zip(1).
    func opensslSigned(certificate: Data, key: Data, chain: Data, name: String) throws -> String {
        let built = directory.appending("\(name)-built.pkpass").path
        let build = try coffer(
            "pass", "build", Self.examplePass.path, "--certificate",
            identity.appendingPathComponent("pass-type.p12").path, "-o", built)
        try #require(build.status == 0, "\(build.errorOutput)")
        let unpacked = directory.appending("\(name)-unpacked")
        let unzip = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-q", built, "-d", unpacked.path])
        try #require(unzip.status == 0, "\(unzip.errorOutput)")
        let signature = try OpenSSL.cmsSign(
            content: try Data(contentsOf: unpacked.appendingPathComponent("manifest.json")), certificate: certificate,
            key: key, chain: [chain], in: directory)
        try signature.write(to: unpacked.appendingPathComponent("signature"))
        let output = directory.appending("\(name).pkpass").path
        let zip = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/sh"), ["-c", "cd '\(unpacked.path)' && zip -q -X -r '\(output)' ."])
        try #require(zip.status == 0, "\(zip.errorOutput)")
        return output
    }

    @Test("verify accepts a pass whose signature openssl cms -sign made (rsaEncryption in the SignerInfo)")
    func opensslSignedPass() throws {
        let p12 = identity.appendingPathComponent("pass-type.p12").path
        let keyPEM = directory.appending("openssl-key.pem").path
        let extracted = try OpenSSL.run(
            "pkcs12", "-in", p12, "-nocerts", "-nodes", "-passin", "pass:dev-p12-pass", "-out", keyPEM)
        try #require(extracted.status == 0, "\(extracted.errorOutput)")
        let pkpass = try opensslSigned(
            certificate: try Data(contentsOf: identity.appendingPathComponent("pass-type.pem")),
            key: try Data(contentsOf: URL(fileURLWithPath: keyPEM)),
            chain: try Data(contentsOf: identity.appendingPathComponent("wwdr.pem")), name: "openssl")
        let verify = try coffer("pass", "verify", pkpass, "--root", identity.appendingPathComponent("root.pem").path)
        #expect(verify.status == 0, "\(verify.errorOutput)")
        #expect(verify.output.contains("serial EXAMPLE-0001"))
        #expect(!verify.errorOutput.contains(".swift"))
    }

    @Test("verify refuses a pass signed by another pass type's certificate under the same root (exit 3)")
    func impostorSigner() throws {
        let hierarchy = try OpenSSL.Hierarchy(in: directory)
        let root = directory.appending("impostor-root.pem")
        try hierarchy.rootPEM.write(to: root)
        let impostor = try hierarchy.leaf(userID: "pass.com.attacker", team: "ATTACKER00", marker: "pass.com.attacker")
        let forged = try opensslSigned(
            certificate: impostor.certificate, key: impostor.key, chain: hierarchy.intermediatePEM, name: "impostor")
        let refused = try coffer("pass", "verify", forged, "--root", root.path)
        #expect(refused.status == 3, "\(refused.output)")
        #expect(refused.errorOutput.contains("not the signing certificate of pass.dev.coffer.example"))
        #expect(refused.errorOutput.contains("pass.com.attacker"))

        let rightful = try hierarchy.leaf(
            userID: "pass.dev.coffer.example", team: "DEVTEAM000", marker: "pass.dev.coffer.example")
        let genuine = try opensslSigned(
            certificate: rightful.certificate, key: rightful.key, chain: hierarchy.intermediatePEM, name: "genuine")
        let verified = try coffer("pass", "verify", genuine, "--root", root.path)
        #expect(verified.status == 0, "\(verified.errorOutput)")
    }
}
