import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletPasses

@Suite("Passes of every layout sign into archives that verify; COFFER_EXPORT_PASSES keeps them for Apple's validator")
struct LintedPassSigningTests {
    /// The samples and the passes shaped like Apple's documented examples, under the test identity's pass type, with
    /// the sample images (an icon, a logo, an artwork and a primary logo for the documented ones).
    static func packages() throws -> [(name: String, package: PassPackage)] {
        let samples = try LintSample.allCases.map { ($0.rawValue, try PassPackage(pass: $0.pass, files: $0.files)) }
        let documented = try AppleDocumentedPasses.all.map { name, text in
            var pass = try Pass(json: Data(text.utf8))
            pass.passTypeIdentifier = Fixtures.passTypeIdentifier
            pass.teamIdentifier = Fixtures.teamIdentifier
            var images: [String: Data] = [:]
            for (stem, width, height) in [
                ("icon", 38, 38), ("logo", 160, 50), ("artwork", 358, 448), ("primaryLogo", 126, 30),
            ] {
                images.merge(LintSample.images(stem, width: width, height: height)) { $1 }
            }
            return ("apple-\(name)", try PassPackage(pass: pass, files: images))
        }
        return samples + documented
    }

    @Test("each signs, verifies against the development root, and reads back the same pass.json")
    func signAndVerify() async throws {
        let signer = DocumentSigner(identity: Fixtures.identity.signingIdentity)
        let verifier = DocumentVerifier(trustRoots: [Fixtures.identity.root])
        let export = ProcessInfo.processInfo.environment["COFFER_EXPORT_PASSES"].map { URL(fileURLWithPath: $0) }
        for (name, package) in try Self.packages() {
            let pkpass = try signer.sign(package).pkpass()
            let verified = try await verifier.verify(pkpass: pkpass)
            #expect(verified.pass == (try package.pass), "\(name)")
            if let export {
                try FileManager.default.createDirectory(at: export, withIntermediateDirectories: true)
                try pkpass.write(to: export.appendingPathComponent("test-\(name).pkpass"))
            }
        }
    }
}
