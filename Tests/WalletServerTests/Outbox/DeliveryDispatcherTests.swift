import CofferTestSupport
import Crypto
import Foundation
import Secrets
import Logging
import SQLKit
import Testing
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServerTesting
import WalletServices
import WalletStore

/// DeliveryDispatcher over the SQL repository's durable outbox, sending to the APNs stand-in: every outcome's effect on
/// the outbox and the device registrations, retries with backoff, the attempt limit, leases between replicas, and
/// the service's wake-up.
@Suite("Push dispatcher")
struct DeliveryDispatcherTests {
    static let topic = "pass.dev.coffer.example"
    static let keyID = "KEY0000001"
    static let teamID = "TEAM000001"

    static func token(_ n: Int) -> String { String(format: "%064x", n) }

    /// A pass of the topic's pass type with `devices` registered devices (device-0…, token(0)…).
    static func makePass(in repository: SQLWalletRepository, devices: Int) async throws -> (StoredPass, PassType) {
        let (pass, passType) = try await repository.makePass(passTypeIdentifier: topic, teamIdentifier: "DEVTEAM000")
        for device in 0..<devices {
            _ = try await repository.register(
                .pass, deviceLibraryIdentifier: "device-\(device)", pushToken: token(device), documentID: pass.id,
                now: Date(),
                maximumDevices: 100)
        }
        return (pass, passType)
    }

    static func outboxCount(_ database: WalletDatabase) async throws -> Int {
        try await database.sql.raw("SELECT COUNT(*) AS n FROM push_outbox").first()?.decode(column: "n", as: Int.self)
            ?? -1
    }

    static func attempts(_ database: WalletDatabase) async throws -> [Int] {
        try await database.sql.raw("SELECT attempts FROM push_outbox ORDER BY attempts").all().map {
            try $0.decode(column: "attempts", as: Int.self)
        }
    }

    /// Runs `body` with a repository, a token-authenticated stand-in and a client of it.
    static func withSetup(
        _ engine: Engine, _ body: (SQLWalletRepository, WalletDatabase, APNsStandIn, APNsClient) async throws -> Void
    ) async throws {
        let key = P256.Signing.PrivateKey()
        try await engine.withRepository { repository, database in
            try await APNsStandIn.with(tokenKey: key.publicKey, keyID: keyID, teamID: teamID) { standIn in
                let client = APNsClient(
                    configuration: APNsConfiguration(
                        gateway: .custom(standIn.url),
                        authentication: .token(try APNsSigningKey(privateKey: key, keyID: keyID, teamID: teamID)),
                        maximumInFlight: 4, requestTimeout: 10, additionalTrustRoots: [standIn.trustRoot]))
                do {
                    try await body(repository, database, standIn, client)
                } catch {
                    try? await client.shutdown()
                    throw error
                }
                try await client.shutdown()
            }
        }
    }

    static func noIdentity(_ passTypeID: UUID) async throws -> SigningIdentity {
        throw WalletServerError.notFound("pass type \(passTypeID)")
    }

    @Test(
        "delivered pushes leave the outbox; an unregistered token removes that device's registration",
        arguments: Engine.available)
    func deliveredAndUnregistered(_ engine: Engine) async throws {
        try await Self.withSetup(engine) { repository, database, standIn, client in
            let (pass, _) = try await Self.makePass(in: repository, devices: 6)
            standIn.script(Self.token(1), .unregistered)
            standIn.script(Self.token(2), .badDeviceToken)
            #expect(try await repository.applyChange(passID: pass.id, content: nil, now: Date()).queuedPushes == 6)
            let metrics = ServerMetrics()
            let clock = ManualClock(Date().addingTimeInterval(2 * 86_400))
            let dispatcher = DeliveryDispatcher(
                outbox: repository, client: client, identity: Self.noIdentity, metrics: metrics, clock: clock)
            #expect(try await dispatcher.drain() == 6)
            #expect(Set(standIn.received.map(\.path)) == Set((0..<6).map { "/3/device/" + Self.token($0) }))
            #expect(try await Self.outboxCount(database) == 0)
            #expect(try await repository.registrationCount(of: .pass, id: pass.id) == 4)
            // A push APNs accepted shows its device is there: the device cap keeps it (PassWebService).
            let seen = try await database.sql.select().column("last_seen_at").from("pass_registrations")
                .all(decodingColumn: "last_seen_at", as: Int64.self)
            #expect(seen == Array(repeating: Int64((clock.now.timeIntervalSince1970 * 1000).rounded()), count: 4))
            #expect(try await dispatcher.drain() == 0)
            let samples = try PrometheusText(String(decoding: metrics.exposition(), as: UTF8.self)).samples
            func count(_ outcome: String) -> Double? {
                samples.first { $0.name == PushMetrics.name && $0.labels == ["outcome": outcome] }?.value
            }
            #expect(count("delivered") == 4)
            #expect(count("unregistered") == 2)
            #expect(count("retried") == 0)
        }
    }

    @Test(
        "when APNs unregisters a pass's last device, its trace says the pass was removed (pass.removed)",
        arguments: Engine.available)
    func lastDeviceUnregisteredByAPNs(_ engine: Engine) async throws {
        try await Self.withSetup(engine) { repository, _, standIn, client in
            let (pass, _) = try await Self.makePass(in: repository, devices: 2)
            standIn.script(Self.token(0), .unregistered)
            standIn.script(Self.token(1), .badDeviceToken)
            let trace = PassEventRecorder(store: repository, devices: nil)
            _ = try await repository.applyChange(passID: pass.id, content: nil, now: Date())
            let dispatcher = DeliveryDispatcher(
                outbox: repository, client: client, identity: Self.noIdentity, trace: trace)
            #expect(try await dispatcher.drain() == 2)
            #expect(try await repository.registrationCount(of: .pass, id: pass.id) == 0)
            let events = try await repository.passEvents(passID: pass.id, after: nil, limit: 50)
            let removals = events.filter { $0.kind == .unregistered }
            #expect(removals.count == 1, "one pass.removed, when the last device goes")
            #expect(removals.first?.details["last_device"] == .bool(true))
            #expect(events.filter { $0.kind == .pushRefused }.count == 2)
        }
    }

    @Test(
        "a push worth retrying waits for its backoff (and Retry-After), then is sent again", arguments: Engine.available
    )
    func retryWithBackoff(_ engine: Engine) async throws {
        try await Self.withSetup(engine) { repository, database, standIn, client in
            let (pass, _) = try await Self.makePass(in: repository, devices: 2)
            standIn.script(Self.token(0), .internalServerError)
            standIn.script(Self.token(1), .tooManyRequests(retryAfter: "120"))
            let clock = ManualClock(Date())
            _ = try await repository.applyChange(passID: pass.id, content: nil, now: clock.now)
            let dispatcher = DeliveryDispatcher(
                outbox: repository, client: client, identity: Self.noIdentity, baseDelay: 10, maximumDelay: 600,
                clock: clock)
            #expect(try await dispatcher.drain() == 2)
            #expect(try await Self.attempts(database) == [1, 1])
            // Not before half the base delay (the jitter's least).
            clock.advance(by: 4)
            #expect(try await dispatcher.drain() == 0)
            // The 500 is due after at most the base delay; the 429 asked for two minutes.
            clock.advance(by: 7)
            #expect(try await dispatcher.drain() == 1)
            clock.advance(by: 110)
            #expect(try await dispatcher.drain() == 1)
            #expect(try await Self.outboxCount(database) == 0)
            #expect(standIn.received.map(\.status).sorted() == [200, 200, 429, 500])
            #expect(try await repository.registrationCount(of: .pass, id: pass.id) == 2)
        }
    }

    @Test(
        "a push that keeps failing is dropped after the last attempt; the registration stays",
        arguments: Engine.available)
    func attemptLimit(_ engine: Engine) async throws {
        try await Self.withSetup(engine) { repository, database, standIn, client in
            let (pass, _) = try await Self.makePass(in: repository, devices: 1)
            standIn.script(Self.token(0), .serviceUnavailable, .serviceUnavailable, .serviceUnavailable)
            let clock = ManualClock(Date())
            _ = try await repository.applyChange(passID: pass.id, content: nil, now: clock.now)
            let dispatcher = DeliveryDispatcher(
                outbox: repository, client: client, identity: Self.noIdentity, maximumAttempts: 3, baseDelay: 1,
                maximumDelay: 1, clock: clock)
            for _ in 0..<3 {
                #expect(try await dispatcher.drain() == 1)
                clock.advance(by: 2)
            }
            #expect(try await Self.outboxCount(database) == 0)
            #expect(standIn.received.count == 3)
            #expect(try await repository.registrationCount(of: .pass, id: pass.id) == 1)
        }
    }

    @Test(
        "a push APNs refuses is dropped at once; a refusal of the server's credentials is retried",
        arguments: Engine.available)
    func rejected(_ engine: Engine) async throws {
        try await Self.withSetup(engine) { repository, database, standIn, client in
            let (pass, _) = try await Self.makePass(in: repository, devices: 2)
            standIn.script(Self.token(0), .topicDisallowed)
            standIn.script(Self.token(1), APNsStandIn.Answer(status: 403, reason: "InvalidProviderToken"))
            _ = try await repository.applyChange(passID: pass.id, content: nil, now: Date())
            let dispatcher = DeliveryDispatcher(outbox: repository, client: client, identity: Self.noIdentity)
            #expect(try await dispatcher.drain() == 2)
            #expect(try await Self.attempts(database) == [1])
            #expect(try await repository.registrationCount(of: .pass, id: pass.id) == 2)
        }
    }

    @Test("two replicas draining one outbox at once send each push exactly once", arguments: Engine.available)
    func leases(_ engine: Engine) async throws {
        try await Self.withSetup(engine) { repository, database, standIn, client in
            let (pass, _) = try await Self.makePass(in: repository, devices: 40)
            _ = try await repository.applyChange(passID: pass.id, content: nil, now: Date())
            let first = DeliveryDispatcher(outbox: repository, client: client, identity: Self.noIdentity)
            let second = DeliveryDispatcher(outbox: repository, client: client, identity: Self.noIdentity)
            async let a = first.drain()
            async let b = second.drain()
            let handled = try await a + b
            #expect(handled == 40)
            #expect(standIn.received.count == 40)
            #expect(Set(standIn.received.map(\.path)).count == 40)
            #expect(try await Self.outboxCount(database) == 0)
        }
    }

    @Test(
        "after its lease runs out, a claim can't complete or retry the push: the newer claimant owns it",
        arguments: Engine.available)
    func staleLeaseRecordsNothing(_ engine: Engine) async throws {
        try await engine.withRepository { repository, database in
            let (pass, _) = try await Self.makePass(in: repository, devices: 1)
            _ = try await repository.applyChange(passID: pass.id, content: nil, now: Date())
            let stale = try #require(try await repository.claimDuePushes(now: Date(), limit: 10, leaseFor: 60).first)
            let current = try #require(
                try await repository.claimDuePushes(now: Date().addingTimeInterval(61), limit: 10, leaseFor: 60).first)
            #expect(current.id == stale.id)
            #expect(try await repository.completePush(stale, now: Date()) == false)
            #expect(try await repository.retryPush(stale, at: Date()) == false)
            #expect(try await repository.abandonPush(stale) == false)
            #expect(try await Self.outboxCount(database) == 1, "the stale claim changed nothing")
            #expect(try await repository.completePush(current, now: Date()))
            #expect(try await Self.outboxCount(database) == 0)
        }
    }

    @Test(
        "concurrent first registrations, re-registrations and unregistrations of one device never fail",
        arguments: Engine.available)
    func concurrentRegistrations(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let (pass, _) = try await Self.makePass(in: repository, devices: 0)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<24 {
                    group.addTask {
                        if index.isMultiple(of: 3) {
                            _ = try await repository.unregister(
                                .pass, deviceLibraryIdentifier: "device-x", documentID: pass.id)
                        } else {
                            _ = try await repository.register(
                                .pass, deviceLibraryIdentifier: "device-x", pushToken: Self.token(index),
                                documentID: pass.id,
                                now: Date(), maximumDevices: 20)
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await repository.registrationCount(of: .pass, id: pass.id) <= 1)
        }
    }

    @Test(
        "a device that registered a new token keeps its registration when the old token is refused",
        arguments: Engine.available)
    func newTokenKept(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let (pass, _) = try await Self.makePass(in: repository, devices: 1)
            _ = try await repository.applyChange(passID: pass.id, content: nil, now: Date())
            let claimed = try await repository.claimDuePushes(now: Date(), limit: 10, leaseFor: 60)
            let push = try #require(claimed.first)
            #expect(push.pushToken == Self.token(0))
            #expect(push.passTypeIdentifier == Self.topic)
            #expect(try await repository.claimDuePushes(now: Date(), limit: 10, leaseFor: 60).isEmpty)
            // A lease that ran out (a replica that died mid-push) lets the push be claimed again.
            let reclaimed = try await repository.claimDuePushes(
                now: Date().addingTimeInterval(61), limit: 10, leaseFor: 60)
            #expect(reclaimed.map(\.id) == [push.id])
            _ = try await repository.register(
                .pass, deviceLibraryIdentifier: "device-0", pushToken: Self.token(99), documentID: pass.id, now: Date(),
                maximumDevices: 100)
            try await repository.removeRegistration(for: push)
            #expect(try await repository.registrationCount(of: .pass, id: pass.id) == 1)
            // The same refusal while the device still has that token removes the registration.
            _ = try await repository.applyChange(passID: pass.id, content: nil, now: Date())
            let current = try #require(
                try await repository.claimDuePushes(now: Date().addingTimeInterval(200), limit: 10, leaseFor: 60).first)
            #expect(current.pushToken == Self.token(99))
            try await repository.removeRegistration(for: current)
            #expect(try await repository.registrationCount(of: .pass, id: pass.id) == 0)
        }
    }

    @Test(
        "certificate authentication sends with the pass type's identity; one that cannot be loaded is retried",
        arguments: Engine.available)
    func certificateIdentity(_ engine: Engine) async throws {
        let development = try DevelopmentIdentity.generate(passTypeIdentifier: Self.topic)
        try await engine.withRepository { repository, database in
            try await APNsStandIn.with(clientCertificateAuthority: development.root) { standIn in
                let (pass, passType) = try await Self.makePass(in: repository, devices: 1)
                let client = APNsClient(
                    configuration: APNsConfiguration(
                        gateway: .custom(standIn.url), requestTimeout: 10, additionalTrustRoots: [standIn.trustRoot]))
                let failing = DeliveryDispatcher(outbox: repository, client: client, identity: Self.noIdentity)
                _ = try await repository.applyChange(passID: pass.id, content: nil, now: Date())
                #expect(try await failing.drain() == 1)
                #expect(standIn.received.isEmpty)
                #expect(try await Self.attempts(database) == [1])
                let dispatcher = DeliveryDispatcher(
                    outbox: repository, client: client,
                    identity: { id in
                        guard id == passType.id else { throw WalletServerError.notFound("pass type \(id)") }
                        return development.signingIdentity
                    }, clock: ManualClock(Date().addingTimeInterval(3600)))
                #expect(try await dispatcher.drain() == 1)
                try await client.shutdown()
                #expect(standIn.received.map(\.status) == [200])
                #expect(standIn.received.first?.clientCertificateSubject?.contains(Self.topic) == true)
                #expect(try await Self.outboxCount(database) == 0)
            }
        }
    }

    @Test(
        "the service sends what is queued when it starts and when woken, and stops at shutdown",
        arguments: Engine.available)
    func service(_ engine: Engine) async throws {
        try await Self.withSetup(engine) { repository, _, standIn, client in
            let (pass, _) = try await Self.makePass(in: repository, devices: 1)
            _ = try await repository.applyChange(passID: pass.id, content: nil, now: Date())
            let dispatcher = DeliveryDispatcher(
                outbox: repository, client: client, identity: Self.noIdentity, pollInterval: .seconds(3600))
            let running = Task { try await dispatcher.run() }
            #expect(await Self.eventually { standIn.received.count == 1 })
            // The next change is sent only because the dispatcher is woken: the poll is an hour away.
            _ = try await repository.applyChange(passID: pass.id, content: nil, now: Date())
            dispatcher.wake()
            #expect(await Self.eventually { standIn.received.count == 2 })
            running.cancel()
            try await running.value
            // The service closed its client.
            guard case .retry = await client.send(pushToken: Self.token(0), topic: Self.topic, identity: nil) else {
                Issue.record("the client still sends after the service stopped")
                return
            }
        }
    }

    @Test("no log line names a push token, whatever becomes of the push", arguments: Engine.available)
    func pushTokensNeverLogged(_ engine: Engine) async throws {
        let lines = Recorder()
        var logger = Logger(label: "push-test") { _ in RecordingLogHandler(recorder: lines, logLevel: .trace) }
        logger.logLevel = .trace
        let key = P256.Signing.PrivateKey()
        try await engine.withRepository { repository, _ in
            try await APNsStandIn.with(tokenKey: key.publicKey, keyID: Self.keyID, teamID: Self.teamID) { standIn in
                let client = APNsClient(
                    configuration: APNsConfiguration(
                        gateway: .custom(standIn.url),
                        authentication: .token(
                            try APNsSigningKey(privateKey: key, keyID: Self.keyID, teamID: Self.teamID)),
                        requestTimeout: 10, additionalTrustRoots: [standIn.trustRoot]),
                    logger: logger)
                let (pass, _) = try await Self.makePass(in: repository, devices: 6)
                standIn.script(Self.token(1), .unregistered)
                standIn.script(Self.token(2), .internalServerError)
                standIn.script(Self.token(3), .topicDisallowed)
                standIn.script(Self.token(4), APNsStandIn.Answer(status: 403, reason: "InvalidProviderToken"))
                standIn.script(Self.token(5), .tooManyRequests(retryAfter: "30"))
                _ = try await repository.applyChange(passID: pass.id, content: nil, now: Date())
                let dispatcher = DeliveryDispatcher(
                    outbox: repository, client: client, identity: Self.noIdentity, logger: logger)
                #expect(try await dispatcher.drain() == 6)
                try await client.shutdown()
                #expect(standIn.received.count == 6)
            }
        }
        let logged = lines.values
        #expect(logged.contains { $0.contains(#""device": "#) }, "lines name the device by its digest")
        #expect(!logged.contains { $0.contains("device-") }, "a device library identifier is logged")
        for device in 0..<6 { #expect(!logged.contains { $0.contains(Self.token(device)) }) }
    }

    /// Waits (up to 20 seconds, polling) for `condition`; returns whether it became true.
    static func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
        for _ in 0..<400 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }
}
