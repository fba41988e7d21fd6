import CofferTestSupport
import Foundation
import Secrets
import Testing

@testable import WalletDocuments
@testable import WalletPasses

@Suite("A Pass Type ID certificate from a CSR: the key never leaves the store, and only Apple's answer to it signs")
struct PassTypeCertificateRequestTests {
    let ca: AppleCAStandIn
    let request: PassTypeCertificateRequest
    let directory: TemporaryDirectory

    init() throws {
        ca = try AppleCAStandIn()
        request = try PassTypeCertificateRequest(
            passTypeIdentifier: Fixtures.passTypeIdentifier, teamIdentifier: Fixtures.teamIdentifier)
        directory = try TemporaryDirectory()
    }

    var issuance: AppleCAStandIn.Issuance {
        AppleCAStandIn.Issuance(
            passTypeIdentifier: Fixtures.passTypeIdentifier, teamIdentifier: Fixtures.teamIdentifier)
    }

    @Test("request, certificate, signed pass: openssl verifies the CSR, and the pass against the CA's root")
    func wholePath() throws {
        let csr = try request.csrPEM()
        let csrURL = directory.appending("request.csr")
        try Data(csr.utf8).write(to: csrURL)
        let checked = try OpenSSL.run("req", "-in", csrURL.path, "-verify", "-noout", "-text")
        #expect(checked.status == 0, "\(checked.errorOutput)")
        #expect(checked.output.contains("2048 bit") && checked.output.contains("sha256WithRSAEncryption"))

        let certificate = try ca.issue(csrPEM: csr, issuance)
        let identity = try request.identity(certificate: certificate, wwdr: ca.wwdrPEM)
        #expect(identity.passTypeIdentifier == Fixtures.passTypeIdentifier)
        let pkpass = try DocumentSigner(identity: identity).sign(try Fixtures.package()).pkpass()
        let (outcome, _) = try OpenSSL.verify(pkpass: pkpass, root: ca.rootPEM, in: directory)
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
    }

    @Test("a certificate made from another CSR is refused: the key would not match")
    func anotherKey() throws {
        let other = try PassTypeCertificateRequest(
            passTypeIdentifier: Fixtures.passTypeIdentifier, teamIdentifier: Fixtures.teamIdentifier)
        let certificate = try ca.issue(csrPEM: try other.csrPEM(), issuance)
        #expect {
            try request.identity(certificate: certificate, wwdr: ca.wwdrPEM)
        } throws: { error in
            if case WalletDocumentError.keyDoesNotMatchCertificate = error { true } else { false }
        }
    }

    @Test(
        "another pass type or another team is refused, naming what the certificate is for",
        arguments: [("pass.dev.coffer.other", Fixtures.teamIdentifier), (Fixtures.passTypeIdentifier, "OTHERTEAM1")])
    func anotherPassTypeOrTeam(passType: String, team: String) throws {
        let certificate = try ca.issue(
            csrPEM: try request.csrPEM(), AppleCAStandIn.Issuance(passTypeIdentifier: passType, teamIdentifier: team))
        #expect {
            try request.identity(certificate: certificate, wwdr: ca.wwdrPEM)
        } throws: { error in
            guard case WalletDocumentError.identityMismatch(_, let found) = error else { return false }
            return found.contains(passType) && found.contains(team)
        }
    }

    @Test("a certificate without Apple's pass-signing usage is refused")
    func withoutPassSigningUsage() throws {
        var issuance = issuance
        issuance.passSigningUsage = false
        let certificate = try ca.issue(csrPEM: try request.csrPEM(), issuance)
        #expect {
            try request.identity(certificate: certificate, wwdr: ca.wwdrPEM)
        } throws: { error in
            guard case WalletDocumentError.unusableCertificate(let reason) = error else { return false }
            return reason.contains("1.2.840.113635.100.4.14")
        }
    }

    @Test(
        "a certificate not valid at the moment of pairing is refused: expired, or not yet valid",
        arguments: [(400.0, "expired"), (-2.0, "not valid until")])
    func outsideValidity(days: Double, says: String) throws {
        let certificate = try ca.issue(csrPEM: try request.csrPEM(), issuance)
        #expect {
            try request.identity(
                certificate: certificate, wwdr: ca.wwdrPEM, now: Date().addingTimeInterval(days * 86_400))
        } throws: { error in
            guard case WalletDocumentError.unusableCertificate(let reason) = error else { return false }
            return reason.contains(says)
        }
    }

    @Test("an intermediate that did not issue the certificate is refused, named, with where Apple's are")
    func anotherIntermediate() throws {
        let certificate = try ca.issue(csrPEM: try request.csrPEM(), issuance)
        let elsewhere = try AppleCAStandIn()
        #expect {
            try request.identity(certificate: certificate, wwdr: elsewhere.wwdrPEM)
        } throws: { error in
            guard case WalletDocumentError.unusableCertificate(let reason) = error else { return false }
            return reason.contains("not one of Apple's") && reason.contains("apple.com/certificateauthority")
        }
        #expect(throws: WalletDocumentError.self) {
            try request.identity(certificate: Data("not a certificate".utf8), wwdr: ca.wwdrPEM)
        }
    }

    @Test(
        "identifiers Apple's portal would refuse are refused before a key is made",
        arguments: [
            ("com.example.ticket", "ABCDE12345"), ("pass.", "ABCDE12345"), ("pass.a b", "ABCDE12345"),
            ("pass.com.example", "abcde12345"), ("pass.com.example", "ABCDE1234"),
        ])
    func badIdentifiers(passType: String, team: String) {
        #expect(throws: WalletDocumentError.self) {
            try PassTypeCertificateRequest(passTypeIdentifier: passType, teamIdentifier: team)
        }
    }

    @Test("kept in the secret store and read back, the request still pairs; it never prints its key")
    func storedAndLoaded() throws {
        let store = AggregateSecretsStore(backend: InMemoryBackend())
        try request.save(to: store, at: "wallet/pass-type-requests/example")
        let loaded = try PassTypeCertificateRequest(from: store, at: "wallet/pass-type-requests/example")
        #expect(loaded.passTypeIdentifier == request.passTypeIdentifier)
        let certificate = try ca.issue(csrPEM: try request.csrPEM(), issuance)
        #expect(throws: Never.self) { try loaded.identity(certificate: certificate, wwdr: ca.wwdrPEM) }
        #expect(!"\(loaded)".contains("PRIVATE") && "\(loaded)".contains(Fixtures.passTypeIdentifier))
        #expect(throws: WalletDocumentError.self) { try PassTypeCertificateRequest(from: store, at: "wallet/none") }
    }
}
