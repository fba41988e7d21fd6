import CofferTestSupport
import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletPasses

@Suite("Signed passes verify with openssl and with DocumentVerifier; every kind of tampering is caught")
struct PassSigningTests {
    let directory: TemporaryDirectory
    let signer = DocumentSigner(identity: Fixtures.identity.signingIdentity)
    let rootPEM: Data
    var verifier: DocumentVerifier { DocumentVerifier(trustRoots: [Fixtures.identity.root]) }

    init() throws {
        directory = try TemporaryDirectory()
        rootPEM = Data(try Fixtures.identity.rootPEM.utf8)
    }

    @Test("openssl cms -verify accepts the signature over manifest.json")
    func opensslVerifiesSignature() throws {
        let signed = try signer.sign(try Fixtures.package())
        let outcome = try OpenSSL.verify(
            signature: signed.signature, content: signed.manifest, root: rootPEM, in: directory)
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        #expect(outcome.errorOutput.contains("Verification successful"))
    }

    @Test(
        "the signature: SHA-256 with RSA, the pass certificate and WWDR intermediate, and a signing time")
    func signatureStructure() throws {
        let signed = try signer.sign(try Fixtures.package())
        let url = directory.appending("signature")
        try signed.signature.write(to: url)
        let printed = try OpenSSL.run("cms", "-cmsout", "-print", "-inform", "DER", "-in", url.path).output
        #expect(printed.contains("sha256"))
        #expect(printed.contains("rsaEncryption"))
        #expect(printed.contains("signingTime"))
        #expect(printed.contains("eContent: <ABSENT>"), "the signature must be detached")
        let certificates = try OpenSSL.run("pkcs7", "-inform", "DER", "-in", url.path, "-print_certs", "-noout").output
        #expect(certificates.contains("Pass Type ID: \(Fixtures.passTypeIdentifier)"))
        #expect(certificates.contains("WWDR"))
    }

    @Test("a .pkpass unzipped by unzip(1) verifies with openssl and its manifest lists every file")
    func pkpassWithSystemTools() throws {
        let pkpass = try signer.sign(try Fixtures.package()).pkpass()
        let (outcome, manifest) = try OpenSSL.verify(pkpass: pkpass, root: rootPEM, in: directory)
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        let listed = try JSONDecoder().decode([String: String].self, from: manifest)
        #expect(Set(listed.keys) == Set(Fixtures.files().keys).union(["pass.json"]))
    }

    @Test("DocumentVerifier accepts an untouched pass and returns its pass.json and signer")
    func verifierAccepts() async throws {
        let pkpass = try signer.sign(try Fixtures.package()).pkpass()
        let verified = try await verifier.verify(pkpass: pkpass)
        #expect(verified.pass.serialNumber == "TICKET-001")
        #expect(verified.signer == Fixtures.identity.signingIdentity.certificate)
        #expect(verified.files.count == Fixtures.files().count + 1)
    }

    /// Rebuilds a signed pass's archive with `change` applied to its entries.
    func tampered(_ change: (inout [String: Data]) -> Void) throws -> Data {
        let signed = try signer.sign(try Fixtures.package())
        var entries = try DocumentArchive.unzip(try signed.pkpass())
        change(&entries)
        return try DocumentArchive.zip(entries)
    }

    static let everyFile = [
        "pass.json", "icon.png", "icon@2x.png", "logo@3x.png", "strip.png", "fr.lproj/pass.strings",
    ]

    @Test("a flipped byte in any pass file fails on that file's hash", arguments: everyFile)
    func flippedByte(_ path: String) async throws {
        let pkpass = try tampered { $0[path]![$0[path]!.startIndex + 3] ^= 0x01 }
        await #expect(throws: WalletDocumentError.verificationFailed(.hashMismatch(path))) {
            try await verifier.verify(pkpass: pkpass)
        }
    }

    @Test("a missing file fails", arguments: ["icon.png", "fr.lproj/pass.strings"])
    func missingFile(_ path: String) async throws {
        let pkpass = try tampered { $0[path] = nil }
        await #expect(throws: WalletDocumentError.verificationFailed(.missingFile(path))) {
            try await verifier.verify(pkpass: pkpass)
        }
    }

    @Test("an extra file fails")
    func extraFile() async throws {
        let pkpass = try tampered { $0["extra.png"] = Fixtures.png(7) }
        await #expect(throws: WalletDocumentError.verificationFailed(.unlistedFile("extra.png"))) {
            try await verifier.verify(pkpass: pkpass)
        }
    }

    @Test("a missing signature or manifest fails", arguments: ["signature", "manifest.json", "pass.json"])
    func missingRequired(_ path: String) async throws {
        let pkpass = try tampered { $0[path] = nil }
        await #expect(throws: WalletDocumentError.verificationFailed(.missingRequiredFile(path))) {
            try await verifier.verify(pkpass: pkpass)
        }
    }

    @Test("a manifest changed after signing fails the signature, for us and for openssl")
    func changedManifest() async throws {
        let signed = try signer.sign(try Fixtures.package())
        var manifest = try JSONDecoder().decode([String: String].self, from: signed.manifest)
        manifest["extra.png"] = "da39a3ee5e6b4b0d3255bfef95601890afd80709"
        let forged = try JSONEncoder().encode(manifest)
        let pkpass = try tampered {
            $0["manifest.json"] = forged
            $0["extra.png"] = Data()
        }
        await #expect {
            try await verifier.verify(pkpass: pkpass)
        } throws: { error in
            guard case WalletDocumentError.verificationFailed(.invalidSignature) = error else { return false }
            return true
        }
        let outcome = try OpenSSL.verify(signature: signed.signature, content: forged, root: rootPEM, in: directory)
        #expect(outcome.status != 0)
    }

    @Test("a flipped byte in the signature fails")
    func flippedSignature() async throws {
        let pkpass = try tampered { $0["signature"]![$0["signature"]!.endIndex - 5] ^= 0x01 }
        await #expect(throws: WalletDocumentError.self) { try await verifier.verify(pkpass: pkpass) }
    }

    @Test("the wrong trust root fails, for us and for openssl")
    func wrongRoot() async throws {
        let other = try DevelopmentIdentity.generate(
            passTypeIdentifier: Fixtures.passTypeIdentifier, teamIdentifier: Fixtures.teamIdentifier)
        let signed = try signer.sign(try Fixtures.package())
        await #expect {
            try await DocumentVerifier(trustRoots: [other.root]).verify(pkpass: try signed.pkpass())
        } throws: { error in
            guard case WalletDocumentError.verificationFailed(.untrustedSigner) = error else { return false }
            return true
        }
        let otherRoot = Data(try other.rootPEM.utf8)
        let outcome = try OpenSSL.verify(
            signature: signed.signature, content: signed.manifest, root: otherRoot, in: directory)
        #expect(outcome.status != 0)
    }

    @Test("data that is not a ZIP is a malformed archive")
    func notAZip() async throws {
        await #expect(throws: WalletDocumentError.self) { try await verifier.verify(pkpass: Data("hello".utf8)) }
    }

    @Test("a signer for another pass type or team refuses to sign")
    func identityMismatch() throws {
        var pass = Fixtures.pass()
        pass.passTypeIdentifier = "pass.com.someone.else"
        let package = try PassPackage(pass: pass, files: Fixtures.files())
        #expect { try signer.sign(package) } throws: { error in
            guard case WalletDocumentError.identityMismatch = error else { return false }
            return true
        }
    }

    @Test("an invalid pass is not signed")
    func invalidPassNotSigned() throws {
        var pass = Fixtures.pass()
        pass.authenticationToken = "short"
        #expect(throws: WalletDocumentError.self) {
            try signer.sign(try PassPackage(pass: pass, files: Fixtures.files()))
        }
    }

    @Test("a .pkpasses bundle holds each pass, and each verifies")
    func bundle() async throws {
        let passes = try ["A", "B", "C"].map { try signer.sign(try Fixtures.package(serial: $0)) }
        let entries = try DocumentArchive.unzip(try SignedPass.bundle(passes))
        #expect(entries.keys.sorted() == ["pass-1.pkpass", "pass-2.pkpass", "pass-3.pkpass"])
        let serials = try await entries.keys.sorted().asyncMap {
            try await verifier.verify(pkpass: entries[$0]!).pass.serialNumber
        }
        #expect(serials == ["A", "B", "C"])
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
