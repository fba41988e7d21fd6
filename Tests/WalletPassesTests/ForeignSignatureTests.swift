import CofferTestSupport
import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletPasses

/// Signatures made by `openssl cms -sign` (what pyca/cryptography's `PKCS7SignatureBuilder` and the Python, Ruby and
/// PHP pass libraries write): `rsaEncryption` as the SignerInfo's signature algorithm, SHA-256 as its digest.
@Suite("Signatures made by openssl cms -sign verify: passes, issuer data, personalization tokens")
struct ForeignSignatureTests {
    let directory: TemporaryDirectory
    var verifier: DocumentVerifier { DocumentVerifier(trustRoots: [Fixtures.identity.root]) }

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// `content` signed by openssl with the development identity's key, carrying the WWDR intermediate.
    func opensslSignature(over content: Data) throws -> Data {
        let identity = Fixtures.identity.signingIdentity
        return try OpenSSL.cmsSign(
            content: content, certificate: Data(try identity.certificate.serializeAsPEMString().utf8),
            key: identity.privateKeyDER(), chain: [Data(try Fixtures.identity.wwdr.serializeAsPEMString().utf8)],
            in: directory)
    }

    /// A `.pkpass` of the fixture package whose signature openssl made.
    func opensslPKPass() throws -> Data {
        let package = try Fixtures.package()
        let manifest = try package.manifest()
        var entries = package.files
        entries["manifest.json"] = manifest
        entries["signature"] = try opensslSignature(over: manifest)
        return try DocumentArchive.zip(entries)
    }

    @Test("openssl's signature names rsaEncryption as the signer's algorithm (the case this suite is about)")
    func opensslWritesRSAEncryption() throws {
        let signature = try opensslSignature(over: Data("content".utf8))
        let url = directory.appending("openssl.sig")
        try signature.write(to: url)
        let printed = try OpenSSL.run("cms", "-cmsout", "-print", "-inform", "DER", "-in", url.path).output
        let signerInfo = try #require(printed.range(of: "signerInfos:")).upperBound
        let algorithm = try #require(printed[signerInfo...].range(of: "signatureAlgorithm:")).upperBound
        #expect(printed[algorithm...].prefix(80).contains("algorithm: rsaEncryption"))
    }

    @Test("a .pkpass signed by openssl cms -sign verifies")
    func pkpass() async throws {
        let verified = try await verifier.verify(pkpass: try opensslPKPass())
        #expect(verified.pass.serialNumber == "TICKET-001")
        #expect(verified.signer == Fixtures.identity.signingIdentity.certificate)
    }

    @Test("issuer data signed by openssl cms -sign verifies")
    func issuerData() async throws {
        let binding = IssuerBindingData(
            relyingPartyIdentifier: "wallet.example.com", accountHash: "acct-1", sessionIdentifier: "session-1",
            callbackURL: "https://wallet.example.com/callback", passTypeIdentifier: Fixtures.passTypeIdentifier,
            teamIdentifier: Fixtures.teamIdentifier, displayableName: "Example")
        let bytes = try binding.serialized()
        let verified = try await verifier.verify(issuerData: bytes, signature: try opensslSignature(over: bytes))
        #expect(verified.binding == binding)
    }

    @Test("a personalization token signed by openssl cms -sign verifies")
    func personalizationToken() async throws {
        let token = Data("personalization-token-42".utf8)
        let signer = try await verifier.verifySignature(
            try opensslSignature(over: token), over: token, passTypeIdentifier: Fixtures.passTypeIdentifier,
            teamIdentifier: Fixtures.teamIdentifier)
        #expect(signer == Fixtures.identity.signingIdentity.certificate)
        await #expect(throws: WalletDocumentError.self) {
            try await verifier.verifySignature(
                try opensslSignature(over: token), over: Data("another token".utf8),
                passTypeIdentifier: Fixtures.passTypeIdentifier, teamIdentifier: Fixtures.teamIdentifier)
        }
    }

    @Test("openssl's signature over other content fails on the digest, not on the algorithm")
    func tamperedContent() async throws {
        let signature = try opensslSignature(over: Data("signed".utf8))
        await #expect(
            throws: WalletDocumentError.verificationFailed(
                .invalidSignature("the content's digest differs from the signed one: the content changed"))
        ) {
            try await verifier.verifySignature(
                signature, over: Data("changed".utf8), passTypeIdentifier: Fixtures.passTypeIdentifier,
                teamIdentifier: Fixtures.teamIdentifier)
        }
    }

    static let unreadableSignatures: [(String, Data)] = [
        ("garbage", Data("not a signature at all".utf8)),
        ("empty", Data()),
        ("a lone SEQUENCE", Data([0x30, 0x03, 0x02, 0x01, 0x01])),
    ]

    @Test(
        "errors are Coffer's own: no library source path, type name or certificate dump",
        arguments: ["garbage", "empty", "a lone SEQUENCE", "SHA-1", "truncated"])
    func cleanMessages(_ kind: String) async throws {
        let content = Data("content".utf8)
        let signature: Data
        switch kind {
        case "SHA-1":
            let identity = Fixtures.identity.signingIdentity
            signature = try OpenSSL.cmsSign(
                content: content, certificate: Data(try identity.certificate.serializeAsPEMString().utf8),
                key: identity.privateKeyDER(), in: directory, digest: "sha1")
        case "truncated":
            signature = try opensslSignature(over: content).prefix(200)
        default:
            signature = Self.unreadableSignatures.first { $0.0 == kind }!.1
        }
        do {
            _ = try await verifier.verifySignature(
                signature, over: content, passTypeIdentifier: Fixtures.passTypeIdentifier,
                teamIdentifier: Fixtures.teamIdentifier)
            Issue.record("\(kind) verified")
        } catch let error as WalletDocumentError {
            let message = error.description
            guard case .verificationFailed(.invalidSignature) = error else {
                Issue.record("unexpected \(message)")
                return
            }
            for leak in [".swift", "Sources/", "CertificateError", "ASN1Error", "X509", "-----BEGIN"] {
                #expect(!message.contains(leak), "\(message)")
            }
        }
    }
}
