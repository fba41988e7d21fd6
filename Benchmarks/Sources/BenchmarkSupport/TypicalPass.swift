import Foundation
import WalletDocuments
import WalletPasses

/// A typical pass for benchmarks: pass.json plus icon, logo and strip images at @1x, @2x and @3x.
public enum TypicalPass {
    /// The package of a typical event ticket for `identity`'s pass type.
    public static func package(identity: DevelopmentIdentity) throws -> PassPackage {
        var files: [String: Data] = [:]
        let sizes = ["icon": 2_000, "logo": 6_000, "strip": 30_000]
        for (name, size) in sizes {
            for (scale, suffix) in ["", "@2x", "@3x"].enumerated() {
                let bytes = size * (scale + 1) * (scale + 1)
                files["\(name)\(suffix).png"] =
                    Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
                    + Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            }
        }
        let certificatePass = identity.signingIdentity
        var pass = Pass(
            passTypeIdentifier: certificatePass.passTypeIdentifier!, teamIdentifier: certificatePass.teamIdentifier!,
            serialNumber: "BENCH-1", organizationName: "Coffer", description: "Benchmark ticket", style: .eventTicket,
            fields: PassFields(primaryFields: [.text("event", "Swift in Concert", label: "EVENT")]))
        pass.barcodes = [PassBarcode(format: .qr, message: "BENCH-1")]
        return try PassPackage(pass: pass, files: files)
    }
}
