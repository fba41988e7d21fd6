import CofferTestSupport
import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletPasses

/// A typical event ticket: pass.json, icon, logo and strip images at @1x/@2x/@3x, and a French localization.
enum Fixtures {
    static let passTypeIdentifier = "pass.dev.coffer.example"
    static let teamIdentifier = "DEVTEAM000"

    /// Bytes that start like a PNG, `size` long.
    static func png(_ seed: UInt8, size: Int = 2048) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            + Data((0..<size).map { UInt8(truncatingIfNeeded: $0) ^ seed })
    }

    static func pass(serial: String = "TICKET-001") -> Pass {
        var pass = Pass(
            passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier, serialNumber: serial,
            organizationName: "Coffer Events", description: "Concert ticket", style: .eventTicket,
            fields: PassFields(
                headerFields: [.text("row", "12", label: "ROW")],
                primaryFields: [.text("event", "Swift in Concert", label: "EVENT")],
                secondaryFields: [
                    PassField(key: "date", value: .text("2026-12-24T20:00:00Z"), label: "DATE", dateStyle: .medium),
                    PassField(key: "price", value: .number(42.5), label: "PRICE", currencyCode: "EUR"),
                ],
                backFields: [.text("terms", "No refunds.", label: "TERMS")]))
        pass.barcodes = [PassBarcode(format: .qr, message: "TICKET-001", altText: "TICKET-001")]
        pass.backgroundColor = PassColor(red: 20, green: 30, blue: 40)
        pass.foregroundColor = PassColor(red: 255, green: 255, blue: 255)
        pass.webServiceURL = "https://passes.example.com/v1"
        pass.authenticationToken = "vxwxd7J8AlNNFPS8k0a0FfUFtq0ewzFdc"
        pass.locations = [PassLocation(latitude: 48.8566, longitude: 2.3522, relevantText: "Welcome")]
        return pass
    }

    static func files() -> [String: Data] {
        var files: [String: Data] = [:]
        for (index, name) in ["icon", "logo", "strip"].enumerated() {
            for (scale, suffix) in ["", "@2x", "@3x"].enumerated() {
                files["\(name)\(suffix).png"] = png(UInt8(index * 3 + scale), size: 1024 * (scale + 1))
            }
        }
        files["fr.lproj/pass.strings"] = Data("\"EVENT\" = \"ÉVÉNEMENT\";\n".utf8)
        files["fr.lproj/logo.png"] = png(99)
        return files
    }

    static func package(serial: String = "TICKET-001") throws -> PassPackage {
        try PassPackage(pass: pass(serial: serial), files: files())
    }

    /// One development hierarchy for the whole test run (RSA key generation is slow).
    static let identity: DevelopmentIdentity = try! DevelopmentIdentity.generate(
        passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier)
}
