import CofferTestSupport
import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletPasses

@Suite("coffer order, from a development identity to a verified .order", .serialized)
struct OrderCommandTests {
    let directory: TemporaryDirectory
    var identity: URL { directory.appending("identity") }
    static let exampleOrder = SourceTree.appending("Examples/Orders/Shoes")

    init() throws {
        directory = try TemporaryDirectory()
        let made = try coffer("order", "dev-identity", identity.path)
        try #require(made.status == 0, "\(made.errorOutput)")
    }

    @discardableResult
    func coffer(_ arguments: String...) throws -> ChildProcess.Outcome {
        try CofferCLI.run(arguments, environment: ["COFFER_P12_PASSPHRASE": "dev-p12-pass"])
    }

    func build(_ source: URL = exampleOrder) throws -> URL {
        let output = directory.appending("\(UUID().uuidString).order")
        let build = try coffer(
            "order", "build", source.path, "--certificate", identity.appendingPathComponent("order-type.p12").path,
            "-o", output.path)
        #expect(build.status == 0, "\(build.errorOutput)")
        return output
    }

    @Test("dev-identity, build and verify work together; openssl agrees")
    func buildAndVerify() throws {
        let output = try build()
        let verify = try coffer(
            "order", "verify", output.path, "--root", identity.appendingPathComponent("root.pem").path)
        #expect(verify.status == 0, "\(verify.errorOutput)")
        #expect(verify.output.contains("verified: order.dev.coffer.example order SHOE-2026-0042"))
        let openssl = try OpenSSL.verify(
            pkpass: try Data(contentsOf: output),
            root: try Data(contentsOf: identity.appendingPathComponent("root.pem")),
            in: directory
        ).outcome
        #expect(openssl.status == 0, "\(openssl.errorOutput)")
    }

    @Test("a tampered .order (re-zipped, so every CRC holds) fails verify with status 3, naming the file")
    func tampered() throws {
        let output = try build()
        let unzipped = directory.appending("unzipped")
        try #require(
            try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-q", output.path, "-d", unzipped.path])
                .status == 0)
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: unzipped.path) {
            let url = unzipped.appendingPathComponent(path)
            if let data = FileManager.default.contents(atPath: url.path), !url.hasDirectoryPath { files[path] = data }
        }
        files["order.json"] = Data(
            String(decoding: files["order.json"]!, as: UTF8.self).replacingOccurrences(of: "89.00", with: "8.90").utf8)
        let forged = directory.appending("forged.order")
        try DocumentArchive.zip(files).write(to: forged)
        let verify = try coffer(
            "order", "verify", forged.path, "--root", identity.appendingPathComponent("root.pem").path)
        #expect(verify.status == 3)
        #expect(verify.errorOutput.contains("order.json does not match its digest"), "\(verify.errorOutput)")
    }

    @Test("a pass certificate cannot build an order")
    func passCertificateRefused() throws {
        let passIdentity = directory.appending("pass-identity")
        try #require(try coffer("pass", "dev-identity", passIdentity.path).status == 0)
        let build = try coffer(
            "order", "build", Self.exampleOrder.path, "--certificate",
            passIdentity.appendingPathComponent("pass-type.p12").path, "-o", directory.appending("x.order").path)
        #expect(build.status == 3)
        #expect(build.errorOutput.contains("order type order.dev.coffer.example"), "\(build.errorOutput)")
    }

    @Test("lint: the example is clean with --strict; a broken order exits 1 and lists its errors as JSON")
    func lint() throws {
        let clean = try coffer("order", "lint", Self.exampleOrder.path, "--strict")
        #expect(clean.status == 0, "\(clean.output)\(clean.errorOutput)")
        #expect(clean.output.contains("0 errors, 0 warnings, 0 notes"))

        let broken = directory.appending("broken")
        try FileManager.default.copyItem(at: Self.exampleOrder, to: broken)
        let json = broken.appendingPathComponent("order.json")
        let text = try String(contentsOf: json, encoding: .utf8).replacingOccurrences(
            of: "\"status\": \"open\"", with: "\"status\": \"shipped\"")
        try text.write(to: json, atomically: true, encoding: .utf8)
        let report = try coffer("order", "lint", broken.path, "--json")
        #expect(report.status == 1)
        let findings = try JSONDecoder().decode([[String: String]].self, from: Data(report.output.utf8))
        #expect(findings.contains { $0["code"] == "value.enumeration" && $0["path"] == "status" })
    }
}
