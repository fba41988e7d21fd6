import CofferTestSupport
import Foundation
import Secrets
import Testing
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

@Suite("coffer admin pass-type request and certificate: a pass type from Apple's answer to a CSR Coffer made")
struct CertificateRequestTests {
    static let passType = "pass.dev.coffer.requested"
    static let team = "REQTEAM001"

    @Test(
        "request, then the certificate: the pass type signs with it, and the waiting request is gone",
        arguments: Engine.available)
    func requestThenCertificate(_ engine: Engine) async throws {
        let ca = try AppleCAStandIn()
        try await AdministrationTests().withAdministration(engine) { administration, storage in
            let csr = try administration.requestCertificate(
                passTypeIdentifier: Self.passType, teamIdentifier: Self.team)
            #expect(csr.hasPrefix("-----BEGIN CERTIFICATE REQUEST-----"))
            let certificate = try ca.issue(
                csrPEM: csr, AppleCAStandIn.Issuance(passTypeIdentifier: Self.passType, teamIdentifier: Self.team))
            let (passType, created, issuer) = try await administration.completeCertificateRequest(
                passTypeIdentifier: Self.passType, certificate: certificate, wwdr: ca.wwdrPEM)
            #expect(created)
            #expect(passType.teamIdentifier == Self.team)
            #expect(issuer.contains("not one of Apple's"), "the stand-in is named as not Apple's: \(issuer)")
            let identity = try await storage.identities.identity(for: passType)
            #expect(identity.passTypeIdentifier == Self.passType)
            await #expect(throws: WalletServerError.self, "the request was used up") {
                try await administration.completeCertificateRequest(
                    passTypeIdentifier: Self.passType, certificate: certificate, wwdr: ca.wwdrPEM)
            }
        }
    }

    @Test("a waiting request is kept unless replacing is asked; a refused certificate leaves it waiting")
    func waitingRequestKept() async throws {
        let ca = try AppleCAStandIn()
        try await AdministrationTests().withAdministration(.sqliteFile) { administration, _ in
            let first = try administration.requestCertificate(
                passTypeIdentifier: Self.passType, teamIdentifier: Self.team)
            #expect(throws: WalletServerError.self) {
                try administration.requestCertificate(passTypeIdentifier: Self.passType, teamIdentifier: Self.team)
            }
            let wrongTeam = try ca.issue(
                csrPEM: first, AppleCAStandIn.Issuance(passTypeIdentifier: Self.passType, teamIdentifier: "OTHERTEAM1"))
            await #expect(throws: WalletDocumentError.self) {
                try await administration.completeCertificateRequest(
                    passTypeIdentifier: Self.passType, certificate: wrongTeam, wwdr: ca.wwdrPEM)
            }
            let right = try ca.issue(
                csrPEM: first, AppleCAStandIn.Issuance(passTypeIdentifier: Self.passType, teamIdentifier: Self.team))
            _ = try await administration.completeCertificateRequest(
                passTypeIdentifier: Self.passType, certificate: right, wwdr: ca.wwdrPEM)

            let second = try administration.requestCertificate(
                passTypeIdentifier: Self.passType, teamIdentifier: Self.team)
            let replaced = try administration.requestCertificate(
                passTypeIdentifier: Self.passType, teamIdentifier: Self.team, replacing: true)
            #expect(second != replaced, "a new key, so a new CSR")
        }
    }
}
