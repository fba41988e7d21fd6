import CofferTestSupport
import Foundation
import Logging
import Secrets
import SecretsAudit
import Testing
import WalletDocuments
import WalletPasses

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("Renewal: a pass type's next identity waits beside the current one and takes over without a restart")
struct IdentityRenewalTests {
    static let identifier = "pass.test.renewal"
    static let team = "TEAM000001"

    /// A development identity of the pass type valid from `from` for `days`.
    static func identity(from: Date = Date(), days: Double = 365) throws -> SigningIdentity {
        try DevelopmentIdentity.generate(
            passTypeIdentifier: identifier, teamIdentifier: team, validity: days * 86_400, now: from
        ).signingIdentity
    }

    /// The pass type imported with an identity ending in `days`, with a certificate watch over the same storage.
    func withPassType(
        _ engine: Engine, endingIn days: Double = 365,
        _ body: (WalletAdministration, WalletServerStorage, PassType) async throws -> Void
    ) async throws {
        try await AdministrationTests().withAdministration(engine) { administration, storage in
            let (passType, _) = try await administration.importPassType(
                try Self.identity(from: Date().addingTimeInterval(-3600), days: days + 3600 / 86_400))
            try await body(administration, storage, passType)
        }
    }

    func watch(_ storage: WalletServerStorage, clock: any CofferClock = SystemClock()) -> CertificateWatch {
        CertificateWatch(
            repository: storage.repository, secrets: storage.secrets, identities: storage.identities,
            metrics: ServerMetrics(), clock: clock, logger: Logger(label: "test"))
    }

    func signer(_ storage: WalletServerStorage, _ id: UUID) async throws -> SigningIdentity {
        let passType = try #require(try await storage.repository.passType(id: id))
        return try await storage.identities.identity(for: passType)
    }

    @Test(
        "a staged identity signs nothing until activated, then every signature at once; the replaced one is kept",
        arguments: Engine.available)
    func stageThenActivate(_ engine: Engine) async throws {
        try await withPassType(engine) { administration, storage, passType in
            let current = try await signer(storage, passType.id)
            let renewed = try Self.identity()
            let (staged, created) = try await administration.importPassType(renewed, staged: true)
            #expect(!created)
            #expect(staged.signingKeyPath == passType.signingKeyPath)
            let activatesAt = try #require(staged.nextActivatesAt)
            #expect(
                abs(activatesAt.timeIntervalSince(current.notValidAfter)) < 1,
                "by default it takes over when the current certificate expires")
            #expect(try await signer(storage, passType.id).certificate == current.certificate)

            let activated = try await administration.activateNextIdentity(passTypeID: passType.id)
            #expect(activated.nextSigningKeyPath == nil && activated.nextActivatesAt == nil)
            #expect(activated.signingKeyPath == staged.nextSigningKeyPath)
            #expect(activated.retiredSigningKeyPath == passType.signingKeyPath)
            #expect(try await signer(storage, passType.id).certificate == renewed.certificate)
            #expect(try storage.secrets.readData(account: passType.signingKeyPath) != nil, "kept until it expires")
            await #expect(throws: WalletServerError.self, "nothing is staged any more") {
                try await administration.activateNextIdentity(passTypeID: passType.id)
            }
        }
    }

    @Test(
        "a scheduled identity takes over when due, switched by exactly one of two watches on the database",
        arguments: Engine.available)
    func scheduled(_ engine: Engine) async throws {
        try await withPassType(engine) { administration, storage, passType in
            let renewed = try Self.identity()
            let when = Date().addingTimeInterval(3600)
            let (staged, _) = try await administration.importPassType(renewed, staged: true, activatingAt: when)
            #expect(abs(try #require(staged.nextActivatesAt).timeIntervalSince(when)) < 0.01)

            let renewals = [watch(storage).renewal, watch(storage).renewal]
            #expect(try await renewals[0].activateDue(now: Date()).isEmpty, "not due yet")
            let switched = try await withThrowingTaskGroup(of: Int.self) { group in
                for renewal in renewals {
                    group.addTask { try await renewal.activateDue(now: when.addingTimeInterval(1)).count }
                }
                return try await group.reduce(0, +)
            }
            #expect(switched == 1)
            #expect(try await signer(storage, passType.id).certificate == renewed.certificate)
        }
    }

    @Test(
        "a staged identity never takes over before its notBefore, whatever activate says",
        arguments: Engine.available)
    func notBefore(_ engine: Engine) async throws {
        try await withPassType(engine) { administration, storage, passType in
            let start = Date().addingTimeInterval(2 * 86_400)
            let future = try Self.identity(from: start)
            _ = try await administration.importPassType(future, staged: true, activatingAt: Date())
            let scheduled = try await administration.activateNextIdentity(passTypeID: passType.id)
            #expect(try #require(scheduled.nextActivatesAt) >= future.notValidBefore)
            #expect(scheduled.signingKeyPath == passType.signingKeyPath, "still the current one")
            #expect(try await signer(storage, passType.id).certificate != future.certificate)
        }
    }

    @Test(
        "a replaced identity leaves the store once its certificate has expired, not before",
        arguments: Engine.available)
    func retiredDropped(_ engine: Engine) async throws {
        try await withPassType(engine, endingIn: 10) { administration, storage, passType in
            let old = try await signer(storage, passType.id)
            _ = try await administration.importPassType(try Self.identity())
            let renewal = watch(storage).renewal
            #expect(try await renewal.dropExpiredRetired(now: Date()).isEmpty)
            #expect(try storage.secrets.readData(account: passType.signingKeyPath) != nil)
            let dropped = try await renewal.dropExpiredRetired(now: old.notValidAfter.addingTimeInterval(1))
            #expect(dropped == [Self.identifier])
            #expect(try storage.secrets.readData(account: passType.signingKeyPath) == nil)
            #expect(try await storage.repository.passType(id: passType.id)?.retiredSigningKeyPath == nil)
        }
    }

    @Test(
        "staging a second identity replaces the first staged one; staging for a new pass type is refused",
        arguments: Engine.available)
    func restage(_ engine: Engine) async throws {
        try await withPassType(engine) { administration, storage, passType in
            let (first, _) = try await administration.importPassType(try Self.identity(), staged: true)
            let (second, _) = try await administration.importPassType(try Self.identity(), staged: true)
            let firstPath = try #require(first.nextSigningKeyPath)
            #expect(second.nextSigningKeyPath != firstPath)
            #expect(try storage.secrets.readData(account: firstPath) == nil, "the staged one it replaced is gone")

            let other = try DevelopmentIdentity.generate(
                passTypeIdentifier: "pass.test.other", teamIdentifier: Self.team)
            let accounts = try storage.secrets.listAccounts()
            await #expect(throws: WalletServerError.self) {
                try await administration.importPassType(other.signingIdentity, staged: true)
            }
            #expect(try storage.secrets.listAccounts() == accounts, "nothing was stored")
        }
    }

    @Test(
        "with a renewal staged to take over in time, an expiring certificate leaves /ready ready and sends no notice",
        arguments: Engine.available)
    func stagedRenewalIsNotExpiry(_ engine: Engine) async throws {
        try await withPassType(engine, endingIn: 10) { administration, storage, passType in
            let probe = ReadinessProbe(repository: storage.repository, identities: storage.identities)
            guard case .degraded = await probe.check() else {
                Issue.record("10 days from expiry is degraded")
                return
            }
            _ = try await administration.importPassType(try Self.identity(), staged: true)
            #expect(await probe.check() == .ready)
            let found = try await watch(storage).look(logging: false)
            #expect(found[Self.identifier]?.isExpiringSoon == false)
        }
    }
}

@Suite("pass_type.certificate_expiring: each threshold once, to the clients the pass type is shared with")
struct CertificateNoticeTests {
    @Test(
        "two watches on one database queue 14 days once, then 7 days once; unshared clients hear nothing",
        arguments: Engine.available)
    func oncePerThreshold(_ engine: Engine) async throws {
        try await IdentityRenewalTests().withPassType(engine, endingIn: 10.5) { administration, storage, passType in
            let shared = try await administration.createClient(name: "Shared")
            let other = try await administration.createClient(name: "Other")
            try await administration.sharePassType(passTypeID: passType.id, clientID: shared.id)
            let repository = storage.repository
            for (client, types) in [
                (shared.id, Set(WebhookEventType.allCases)), (shared.id, [.passUpdated]),
                (other.id, Set(WebhookEventType.allCases)),
            ] {
                let endpoint = WebhookEndpoint(
                    clientID: client, url: "https://hooks.example.com/\(UUID())", eventTypes: types, createdAt: Date())
                #expect(try await repository.createWebhookEndpoint(endpoint, maximum: 10))
            }
            let clock = ManualClock(Date())
            let watches = [
                IdentityRenewalTests().watch(storage, clock: clock),
                IdentityRenewalTests().watch(storage, clock: clock),
            ]
            func lookFromBoth() async throws {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for watch in watches { group.addTask { _ = try await watch.look(logging: false) } }
                    try await group.waitForAll()
                }
            }
            func notices() async throws -> [[String: Any]] {
                let due = try await repository.claimDueWebhooks(
                    now: clock.now.addingTimeInterval(1), limit: 100, perEndpoint: 100, perClient: 100, leaseFor: 0.001)
                return try due.filter { $0.eventType == .passTypeCertificateExpiring }.map {
                    #expect($0.passID == nil)
                    return try #require(try JSONSerialization.jsonObject(with: $0.payload) as? [String: Any])
                }
            }

            try await lookFromBoth()
            try await lookFromBoth()
            var queued = try await notices()
            #expect(queued.count == 1, "one endpoint of the shared client takes the type; queued once")
            let data = try #require(queued.first?["data"] as? [String: Any])
            let certificate = try #require(data["certificate"] as? [String: Any])
            #expect(certificate["threshold_days"] as? Double == 14)
            #expect(certificate["days_left"] as? Double == 10)
            let named = try #require(data["pass_type"] as? [String: Any])
            #expect(named["pass_type_identifier"] as? String == IdentityRenewalTests.identifier)

            clock.advance(by: 4 * 86_400)
            try await lookFromBoth()
            queued = try await notices()
            #expect(queued.count == 2, "the 14-day notice again (its lease ran out) and the new 7-day one")
            let thresholds = queued.compactMap {
                (($0["data"] as? [String: Any])?["certificate"] as? [String: Any])?["threshold_days"] as? Double
            }
            #expect(thresholds.sorted() == [7, 14])
        }
    }

    @Test("the tightest threshold crossed is the one sent; none after the end or before 30 days")
    func thresholds() {
        let passType = PassType(
            passTypeIdentifier: "pass.example", teamIdentifier: "TEAM000001", organizationName: "Example",
            signingKeyPath: "wallet/pass-types/example")
        let now = Date()
        func threshold(_ days: Double) -> Int? {
            CertificateNotice(
                passType: passType,
                expiry: CertificateExpiry(notValidAfter: now.addingTimeInterval(days * 86_400), now: now)
            )?.thresholdDays
        }
        #expect(threshold(31) == nil)
        #expect(threshold(30) == 30)
        #expect(threshold(20) == 30)
        #expect(threshold(14) == 14)
        #expect(threshold(6.5) == 7)
        #expect(threshold(0.5) == 1)
        #expect(threshold(-0.5) == nil)
    }
}

extension IdentityRenewalTests {
    @Test(
        "a due identity that no longer loads is not switched to: the current one keeps signing",
        arguments: Engine.available)
    func brokenStagedIdentity(_ engine: Engine) async throws {
        try await withPassType(engine) { administration, storage, passType in
            let current = try await signer(storage, passType.id)
            let (staged, _) = try await administration.importPassType(try Self.identity(), staged: true)
            try storage.secrets.saveData(Data("not an identity".utf8), account: try #require(staged.nextSigningKeyPath))
            #expect(try await watch(storage).renewal.activateDue(now: Date.distantFuture).isEmpty)
            #expect(try await signer(storage, passType.id).certificate == current.certificate)
        }
    }
}
