import CofferTestSupport
import Crypto
import Foundation
import HTTPTypes
import Logging
import Secrets
import Testing
import WalletDocuments
import WalletPasses

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("Certificate expiry: said in /ready, in a gauge, in the log and in the pass type list, before customers notice")
struct CertificateExpiryTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    @Test(
        "a certificate is valid, expiring within 30 days, or expired; days left count down to 0, then below",
        arguments: [
            (40.0, false, false, 40), (30.0, true, false, 30), (10.5, true, false, 10), (0.5, true, false, 0),
            (-0.5, false, true, -1),
        ])
    func judgement(days: Double, soon: Bool, expired: Bool, left: Int) {
        let expiry = CertificateExpiry(notValidAfter: Self.now.addingTimeInterval(days * 86_400), now: Self.now)
        #expect(expiry.isExpiringSoon == soon)
        #expect(expiry.isExpired == expired)
        #expect(expiry.daysLeft == left)
        #expect((expiry.reason(passTypeIdentifier: "pass.example") != nil) == (soon || expired))
    }

    @Test("the reason names the pass type, the day and what to do")
    func reasons() throws {
        let soon = CertificateExpiry(notValidAfter: Self.now.addingTimeInterval(10 * 86_400 + 60), now: Self.now)
        let warning = try #require(soon.reason(passTypeIdentifier: "pass.example"))
        #expect(warning.contains("pass.example") && warning.contains("10 days") && warning.contains(soon.endDay))
        #expect(warning.contains("coffer admin pass-type import"))
        let gone = CertificateExpiry(notValidAfter: Self.now.addingTimeInterval(-86_400), now: Self.now)
        #expect(try #require(gone.reason(passTypeIdentifier: "pass.example")).contains("expired on"))
    }

    /// A world whose pass type's certificate ends `days` from now.
    static func withIdentity(
        endingIn days: Double,
        _ body: (ProvisioningWorld, SigningIdentityCache, AggregateSecretsStore) async throws -> Void
    ) async throws {
        try await ProvisioningWorld.with(.sqliteFile) { world in
            let identity = try DevelopmentIdentity.generate(
                passTypeIdentifier: "pass.dev.coffer.expiring", validity: days * 86_400 + 3600, now: Date())
            let secrets = AggregateSecretsStore(backend: InMemoryBackend())
            try ProvisioningWorld.identity.signingIdentity.save(to: secrets, at: "wallet/pass-types/server")
            try identity.signingIdentity.save(to: secrets, at: "wallet/pass-types/expiring")
            try await world.repository.createPassType(
                PassType(
                    passTypeIdentifier: "pass.dev.coffer.expiring", teamIdentifier: "DEVTEAM000",
                    organizationName: "Acme", signingKeyPath: "wallet/pass-types/expiring"))
            try await body(world, SigningIdentityCache(store: secrets), secrets)
        }
    }

    @Test("an identity 10 days from expiry: /ready is 200 degraded, naming it; the other pass type is fine")
    func degraded() async throws {
        try await Self.withIdentity(endingIn: 10) { world, identities, _ in
            let probe = ReadinessProbe(repository: world.repository, identities: identities)
            let (status, answer, _) = try await ReadinessTests.ready(world, readiness: probe)
            #expect(status == .ok)
            #expect(answer.status == "degraded")
            let reasons = try #require(answer.reasons)
            #expect(reasons.count == 1)
            #expect(reasons.first?.contains("pass.dev.coffer.expiring") == true)
            #expect(reasons.first?.contains("10 days") == true)
        }
    }

    @Test("an expired identity: /ready is 503, saying when it expired")
    func expired() async throws {
        try await Self.withIdentity(endingIn: 10) { world, identities, _ in
            let later = ManualClock(Date().addingTimeInterval(11 * 86_400))
            let probe = ReadinessProbe(repository: world.repository, identities: identities, clock: later)
            let (status, answer, _) = try await ReadinessTests.ready(world, readiness: probe)
            #expect(status == .serviceUnavailable)
            #expect(answer.status == "not_ready")
            #expect(answer.reasons?.first?.contains("expired on") == true)
        }
    }

    @Test("the daily look sets each pass type's expiry gauge and logs a warning for the one about to expire")
    func watch() async throws {
        try await Self.withIdentity(endingIn: 10) { world, identities, secrets in
            let metrics = ServerMetrics()
            let lines = Recorder()
            let logger = Logger(label: "watch") { _ in RecordingLogHandler(recorder: lines, logLevel: .warning) }
            let watch = CertificateWatch(
                repository: world.repository, secrets: secrets, identities: identities, metrics: metrics,
                logger: logger)
            let found = try await watch.look()
            let expiring = try #require(found["pass.dev.coffer.expiring"])
            #expect(expiring.isExpiringSoon)
            #expect(found["pass.dev.coffer.server"]?.isExpiringSoon == false)
            let text = try PrometheusText(String(decoding: metrics.exposition(), as: UTF8.self))
            let gauge = "coffer_pass_type_certificate_expiry_timestamp_seconds"
            #expect(
                text.value(gauge, ["pass_type": "pass.dev.coffer.expiring"])
                    == expiring.notValidAfter.timeIntervalSince1970.rounded(.down))
            #expect(text.value(gauge, ["pass_type": "pass.dev.coffer.server"]) != nil)
            #expect(lines.values.count == 1, "one warning, for the pass type about to expire: \(lines.values)")
            #expect(lines.values.first?.contains("pass.dev.coffer.expiring") == true)
        }
    }

    @Test("pushes authenticate with the certificate, or with a .p8 key that works only for its own team")
    func pushAuthentication() throws {
        let key = try APNsSigningKey(privateKey: P256.Signing.PrivateKey(), keyID: "KEY1234567", teamID: "TEAM000001")
        let token = APNsConfiguration(authentication: .token(key))
        let own = token.pushAuthentication(teamIdentifier: "TEAM000001")
        #expect(own.usable && own.summary == "p8 key KEY1234567 (team TEAM000001)")
        let other = token.pushAuthentication(teamIdentifier: "TEAM000002")
        #expect(!other.usable && other.summary == "P8 KEY OF ANOTHER TEAM (TEAM000001): PUSHES FAIL")
        let certificate = APNsConfiguration().pushAuthentication(teamIdentifier: "TEAM000002")
        #expect(certificate.usable && certificate.summary == "certificate" && certificate.keyID == nil)
    }

    @Test("the pass type list says how long each certificate has left, in capitals when it is soon or past")
    func summary() {
        func summary(_ days: Double) -> String {
            CertificateExpiry(notValidAfter: Self.now.addingTimeInterval(days * 86_400), now: Self.now).summary
        }
        #expect(summary(100) == "until 2027-02-26 (100 days)")
        #expect(summary(9.5) == "EXPIRES IN 9 DAYS (2026-11-27)")
        #expect(summary(1.5) == "EXPIRES IN 1 DAY (2026-11-19)")
        #expect(summary(-0.1) == "EXPIRED 2026-11-18")
    }
}
