import CofferTestSupport
import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletPasses

@Suite("Issuer data is serialized once and signed over exactly those bytes")
struct IssuerDataTests {
    let signer = DocumentSigner(identity: Fixtures.identity.signingIdentity)

    func binding(passType: String = Fixtures.passTypeIdentifier, team: String = Fixtures.teamIdentifier)
        -> IssuerBindingData
    {
        IssuerBindingData(
            relyingPartyIdentifier: "wallet.example.com", accountHash: "u_8f3kd92", sessionIdentifier: "123",
            callbackURL: "https://wallet.example.com/api/v2/in_app_provisioning/callback",
            passTypeIdentifier: passType, teamIdentifier: team, displayableName: "Coffer Events")
    }

    @Test("issuer_data decodes to the signed JSON, and openssl verifies the signature over it")
    func signedPair() throws {
        let signed = try signer.sign(binding())
        let data = try #require(Data(base64Encoded: signed.issuerData))
        let signature = try #require(Data(base64Encoded: signed.signature))
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(
            Set(object.keys) == [
                "fidoProfile", "creationTimestamp", "sessionIdentifier", "callbackURL", "passTypeIdentifier",
                "teamIdentifier", "displayableName",
            ])
        let fido = object["fidoProfile"] as! [String: Any]
        #expect(fido["relyingPartyIdentifier"] as? String == "wallet.example.com")
        #expect(fido["accountHash"] as? String == "u_8f3kd92")
        #expect(String(decoding: data, as: UTF8.self).contains("https://wallet.example.com/api"), "no escaped slashes")
        let directory = try TemporaryDirectory()
        let root = Data(try Fixtures.identity.rootPEM.utf8)
        let outcome = try OpenSSL.verify(signature: signature, content: data, root: root, in: directory)
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
    }

    @Test("the creation timestamp is ISO 8601 and fresh")
    func timestamp() throws {
        let binding = binding()
        let created = try #require(binding.creationDate)
        #expect(abs(created.timeIntervalSinceNow) < IssuerBindingData.maximumAge)
        #expect(binding.creationTimestamp.hasSuffix("Z"))
    }

    @Test("the response pair encodes as {issuer_data, signature}")
    func responseShape() throws {
        let json =
            try JSONSerialization.jsonObject(with: try JSONEncoder().encode(try signer.sign(binding())))
            as! [String: Any]
        #expect(Set(json.keys) == ["issuer_data", "signature"])
    }

    @Test(
        "a certificate for another pass type or team does not sign",
        arguments: [
            ("pass.com.other", Fixtures.teamIdentifier), (Fixtures.passTypeIdentifier, "OTHERTEAM1"),
        ])
    func mismatch(_ passType: String, _ team: String) {
        #expect { try signer.sign(binding(passType: passType, team: team)) } throws: { error in
            guard case WalletDocumentError.identityMismatch = error else { return false }
            return true
        }
    }

    @Test("DocumentVerifier checks an issuer-data signature against the trust root")
    func verifierChecksSignature() async throws {
        let signed = try signer.sign(binding())
        let verifier = DocumentVerifier(trustRoots: [Fixtures.identity.root])
        let data = Data(base64Encoded: signed.issuerData)!
        let verified = try await verifier.verify(signed)
        #expect(verified.signer == Fixtures.identity.signingIdentity.certificate)
        #expect(verified.binding == (try JSONDecoder().decode(IssuerBindingData.self, from: data)))
        var altered = data
        altered[altered.startIndex] ^= 1
        await #expect(throws: WalletDocumentError.self) {
            try await verifier.verify(issuerData: altered, signature: Data(base64Encoded: signed.signature)!)
        }
        await #expect(throws: WalletDocumentError.self) {
            try await verifier.verifySignature(
                Data(base64Encoded: signed.signature)!, over: altered,
                passTypeIdentifier: Fixtures.passTypeIdentifier, teamIdentifier: Fixtures.teamIdentifier)
        }
    }
}
