import CofferTestSupport
import Foundation
import Testing
@testable import WalletDocuments
import X509
@testable import WalletPasses

/// One root, several leaves under it: only the Pass Type ID certificate of the pass's own pass type and team may
/// sign it, whatever else chains to the root.
@Suite("Verification requires the Pass Type ID certificate of the pass's own pass type and team")
struct SignerCheckTests {
    static let victimPassType = Fixtures.passTypeIdentifier
    static let victimTeam = Fixtures.teamIdentifier

    let directory: TemporaryDirectory
    let hierarchy: OpenSSL.Hierarchy
    let verifier: DocumentVerifier

    init() throws {
        directory = try TemporaryDirectory()
        hierarchy = try OpenSSL.Hierarchy(in: directory)
        verifier = DocumentVerifier(
            trustRoots: [try SigningIdentity.certificate(from: hierarchy.rootPEM, role: "root")])
    }

    /// A Coffer signing identity for an openssl-made leaf under the shared root.
    func identity(userID: String, team: String, marker: String?) throws -> SigningIdentity {
        let leaf = try hierarchy.leaf(userID: userID, team: team, marker: marker)
        return try SigningIdentity(certificate: leaf.certificate, privateKey: leaf.key, wwdr: hierarchy.intermediatePEM)
    }

    /// The fixture pass (the victim's pass type and team) with its manifest signed by `identity`, skipping the
    /// signer's own check the way an attacker would.
    func pkpass(signedBy identity: SigningIdentity) throws -> Data {
        let package = try Fixtures.package()
        let manifest = try package.manifest()
        var entries = package.files
        entries["manifest.json"] = manifest
        entries["signature"] = try DocumentSigner(identity: identity).signature(for: manifest)
        return try DocumentArchive.zip(entries)
    }

    static let impostors: [(name: String, userID: String, team: String, marker: String?)] = [
        ("another pass type and team", "pass.com.attacker", "ATTACKER00", "pass.com.attacker"),
        ("the right team, another pass type", "pass.com.attacker", victimTeam, "pass.com.attacker"),
        ("the right pass type, another team", victimPassType, "ATTACKER00", victimPassType),
        ("the right UID and OU but no Pass Type ID extension", victimPassType, victimTeam, nil),
        ("the right UID and OU but an extension naming another pass type", victimPassType, victimTeam, "pass.other"),
    ]

    @Test("a .pkpass signed by another certificate under the same root is rejected", arguments: impostors.map(\.name))
    func impostorPass(_ name: String) async throws {
        let impostor = Self.impostors.first { $0.name == name }!
        let pkpass = try pkpass(
            signedBy: try identity(userID: impostor.userID, team: impostor.team, marker: impostor.marker))
        await #expect {
            try await verifier.verify(pkpass: pkpass)
        } throws: { error in
            guard case WalletDocumentError.verificationFailed(.wrongSigner(let expected, _)) = error else {
                return false
            }
            return expected == "\(Self.victimPassType) (team \(Self.victimTeam))"
        }
    }

    @Test("the pass's own Pass Type ID certificate under the same root verifies")
    func rightSigner() async throws {
        let signer = try identity(userID: Self.victimPassType, team: Self.victimTeam, marker: Self.victimPassType)
        let verified = try await verifier.verify(pkpass: try pkpass(signedBy: signer))
        #expect(verified.signer == signer.certificate)
    }

    func binding(passType: String, team: String) -> IssuerBindingData {
        IssuerBindingData(
            relyingPartyIdentifier: "wallet.example.com", accountHash: "acct-1", sessionIdentifier: "session-1",
            callbackURL: "https://wallet.example.com/callback", passTypeIdentifier: passType, teamIdentifier: team,
            displayableName: "Example")
    }

    @Test("issuer data claiming another pass type than its signer's is rejected; its own signer's verifies")
    func issuerData() async throws {
        let attacker = try identity(userID: "pass.com.attacker", team: "ATTACKER00", marker: "pass.com.attacker")
        let claimed = try binding(passType: Self.victimPassType, team: Self.victimTeam).serialized()
        let forged = try DocumentSigner(identity: attacker).signature(for: claimed)
        await #expect {
            try await verifier.verify(issuerData: claimed, signature: forged)
        } throws: { error in
            guard case WalletDocumentError.verificationFailed(.wrongSigner) = error else { return false }
            return true
        }
        let signed = try DocumentSigner(identity: attacker).sign(
            binding(passType: "pass.com.attacker", team: "ATTACKER00"))
        let verified = try await verifier.verify(signed)
        #expect(verified.binding.passTypeIdentifier == "pass.com.attacker")
        #expect(verified.signer == attacker.certificate)
    }

    @Test("the signer refuses a certificate without Apple's Pass Type ID extension, with the same check")
    func signerRefusesPlainCertificate() throws {
        let plain = try identity(userID: Self.victimPassType, team: Self.victimTeam, marker: nil)
        #expect {
            try DocumentSigner(identity: plain).sign(try Fixtures.package())
        } throws: { error in
            guard case WalletDocumentError.identityMismatch(_, let found) = error else { return false }
            return found.contains("not a Pass Type ID certificate")
        }
    }

    @Test("a development identity carries Apple's Pass Type ID extension naming its pass type")
    func developmentIdentityMarker() throws {
        let certificate = Fixtures.identity.signingIdentity.certificate
        let marker = try #require(certificate.extensions[oid: SigningIdentity.passTypeIDExtensionOID])
        #expect(SigningIdentity.markerString(marker.value) == Fixtures.passTypeIdentifier)
    }
}
