import CofferTestSupport
import Foundation
import SQLKit
import Secrets
import Testing
import WalletDocuments
import WalletPasses
import WalletServerTesting
import WalletServices
import WalletStore

@testable import WalletServer

/// The way from a change of a pass to its Google Wallet object: the change queues a write in its transaction, and
/// the dispatcher writes the object through the Google Wallet stand-in.
@Suite("Changes reach Google Wallet once, through the outbox")
struct GoogleWalletOutboxTests {
    static let issuerID = "3388000000012345678"
    static let publicURL = "https://wallet.example.com"

    /// A world whose pass type has a Google issuer, a stand-in, and a dispatcher that writes to it.
    struct GoogleWorld {
        let world: ProvisioningWorld
        let standIn: GoogleWalletStandIn
        let passID: UUID
        let secrets: AggregateSecretsStore
        let updater: PassUpdater
        /// The dispatchers made, whose clients close at the end.
        let dispatchers = Locked<[DeliveryDispatcher]>([])

        /// A dispatcher (a replica) with its own Google client.
        func dispatcher() -> DeliveryDispatcher {
            let repository = world.repository
            let writer = GoogleWalletWriter(
                api: GoogleWalletClient(configuration: standIn.configuration, clock: world.clock), outbox: repository,
                source: GooglePassSource(repository: repository, secrets: secrets),
                converter: GooglePassConverter(publicBaseURL: { GoogleWalletOutboxTests.publicURL }), clock: world.clock
            )
            let dispatcher = DeliveryDispatcher(
                outbox: repository, client: APNsClient(configuration: APNsConfiguration()),
                identity: { _ in throw WalletServerError.notFound("no pushes here") }, pollInterval: .seconds(3600),
                trace: world.service.trace, google: writer, clock: world.clock)
            dispatchers.withLock { $0.append(dispatcher) }
            return dispatcher
        }

        /// Closes the dispatchers' clients and the stand-in.
        func shutdown() async {
            for dispatcher in dispatchers.withLock({ $0 }) { try? await dispatcher.google?.api.shutdown() }
            await standIn.shutdown()
        }

        /// The object's requests the stand-in received (inserts and replacements).
        var objectWrites: [GoogleWalletStandIn.Received] {
            standIn.received.filter { $0.path.contains("genericObject") || $0.path.contains("eventTicketObject") }
                .filter { $0.method == "PUT" || $0.method == "POST" }
        }

        /// Drains `dispatcher` until nothing is due, moving the clock past each retry's backoff; how many it sent.
        func drainAll(_ dispatcher: DeliveryDispatcher) async throws -> Int {
            var sent = 0
            for _ in 0..<20 {
                let drained = try await dispatcher.drain()
                guard drained > 0 else { break }
                sent += drained
                world.clock.advance(by: 5)
            }
            return sent
        }

        /// How many of the passes `passIDs` have their object written at their current update tag.
        func written(_ passIDs: [UUID]) async throws -> Int {
            var count = 0
            for passID in passIDs {
                let tag = try await world.repository.pass(id: passID)?.updateTag
                if let tag, try await world.repository.googleObject(passID: passID)?.writtenUpdateTag == tag {
                    count += 1
                }
            }
            return count
        }

        /// Makes a pass of the client `clientID` (the world's by default) for its user `userID`, with the serial
        /// number `serial` and otherwise `template`'s content.
        func makePass(serial: String, like template: StoredPass, clientID: UUID? = nil, userID: UUID? = nil)
            async throws -> UUID
        {
            let tag = ClientTag(
                clientID: clientID ?? world.tag.clientID, userID: userID ?? world.tag.userID, referenceID: serial,
                prontoTagID: serial)
            try await world.repository.createTag(tag)
            var package = try PassPackage(archive: template.passContent)
            var pass = try package.pass
            pass.serialNumber = serial
            try package.setPass(pass)
            let stored = StoredPass(
                tagID: tag.id, passTypeID: template.passTypeID, serialNumber: serial,
                passContent: try package.archived())
            try await world.repository.createPass(stored)
            return stored.id
        }

        /// The pass's trace events of `kind`.
        func events(_ kind: PassEvent.Kind) async throws -> [PassEvent] {
            await world.service.trace.flush()
            return try await world.repository.passEvents(passID: passID, after: nil, limit: 500).filter {
                $0.kind == kind
            }
        }

        /// The stored object.
        var object: [String: JSONValue]? {
            get async throws {
                let record = try await world.repository.googleObject(passID: passID)
                return record.flatMap { standIn.resource($0.objectID) }
            }
        }
    }

    func withGoogle(_ engine: Engine, _ body: (GoogleWorld) async throws -> Void) async throws {
        try await ProvisioningWorld.with(engine) { world in
            let standIn = try await GoogleWalletStandIn(now: { world.clock.now })
            do {
                let pass = try #require(try await world.repository.pass(tagID: world.tag.id))
                let secrets = AggregateSecretsStore(backend: InMemoryBackend())
                try secrets.saveData(
                    try standIn.makeServiceAccount(issuerID: Self.issuerID),
                    account: GoogleIssuer.secretPath(passTypeID: pass.passTypeID))
                #expect(
                    try await world.repository.setGoogleIssuer(
                        passTypeID: pass.passTypeID, issuerID: Self.issuerID, mayUseMerchantLocations: false))
                let updater = PassUpdater(store: world.repository, clock: world.clock, trace: world.service.trace)
                let google = GoogleWorld(
                    world: world, standIn: standIn, passID: pass.id, secrets: secrets, updater: updater)
                do {
                    try await body(google)
                } catch {
                    await google.shutdown()
                    throw error
                }
                await google.shutdown()
            } catch {
                await standIn.shutdown()
                throw error
            }
        }
    }

    @Test(
        "a change writes the object once; draining again, or a write with nothing new, writes nothing",
        arguments: Engine.available)
    func changeWritesOnce(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let dispatcher = google.dispatcher()
            #expect(
                try await google.world.repository.queueGoogleWrite(passID: google.passID, now: google.world.clock.now))
            #expect(try await dispatcher.drain() == 1)
            #expect(google.objectWrites.count == 2, "PUT 404, then POST")
            #expect(try await google.events(.googleWritten).count == 1)
            let record = try #require(try await google.world.repository.googleObject(passID: google.passID))
            let classID = try #require(record.classID)
            let walletClass = try #require(google.standIn.resource(classID))
            #expect(
                walletClass["callbackOptions"]?.jsonText
                    == #"{"url":"https://wallet.example.com/google/callbacks/\#(Self.issuerID)"}"#)
            guard case .object(let logo)? = walletClass["logo"], case .object(let source)? = logo["sourceUri"],
                case .string(let url)? = source["uri"], let name = url.split(separator: "/").last
            else {
                Issue.record("the class has its logo by URL")
                return
            }
            #expect(url.hasPrefix(Self.publicURL + GooglePassConverter.imagesPath + "/"))
            #expect(try await google.world.repository.googleImage(named: String(name)) != nil, "kept for Google")

            try await google.updater.update(
                passID: google.passID, PassChange(fields: ["event": .text("Moved to Hall B")]))
            #expect(try await dispatcher.drain() == 1)
            #expect(google.objectWrites.count == 3)
            #expect(try await google.object?["textModulesData"]?.jsonText.contains("Moved to Hall B") == true)

            #expect(try await dispatcher.drain() == 0)
            #expect(
                try await google.world.repository.queueGoogleWrite(passID: google.passID, now: google.world.clock.now))
            #expect(try await dispatcher.drain() == 1)
            #expect(google.objectWrites.count == 3, "the object holds this update already")
            let last = try #require(try await google.events(.googleWritten).last)
            #expect(last.details["content_written"] == .bool(false))
        }
    }

    @Test(
        "a rotated token gives the pass a new object and leaves the old one INACTIVE with a message",
        arguments: Engine.available)
    func rotatedToken(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let repository = google.world.repository
            let dispatcher = google.dispatcher()
            #expect(try await repository.queueGoogleWrite(passID: google.passID, now: google.world.clock.now))
            #expect(try await dispatcher.drain() == 1)
            let old = try #require(try await repository.googleObject(passID: google.passID))
            try await repository.rotateAuthentication(
                passID: google.passID,
                assignment: .init(salt: "rotated-salt", tokenHash: Data(repeating: 7, count: 32)),
                now: google.world.clock.now)
            #expect(try await dispatcher.drain() == 1, "the rotation queued the new object's write")
            let new = try #require(try await repository.googleObject(passID: google.passID))
            #expect(new.objectID != old.objectID && new.generation == 1 && new.retiredObjectID == nil)
            #expect(google.standIn.resource(old.objectID)?["state"] == .string("INACTIVE"))
            #expect(google.standIn.resource(old.objectID)?["messages"]?.jsonText.contains("replaced") == true)
            #expect(google.standIn.resource(new.objectID)?["state"] == .string("ACTIVE"))
        }
    }

    @Test(
        "two passes whose serials differ only in characters Google refuses get objects of their own",
        arguments: Engine.available)
    func separateObjects(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let repository = google.world.repository
            let template = try #require(try await repository.pass(id: google.passID))
            var ids: [UUID] = []
            for serial in ["A/1", "A_1"] { ids.append(try await google.makePass(serial: serial, like: template)) }
            google.world.clock.advance(by: Date().timeIntervalSince(google.world.clock.now) + 1)
            #expect(try await google.dispatcher().drain() == 2)
            var objects: [String?] = []
            for id in ids { objects.append(try await repository.googleObject(passID: id)?.objectID) }
            #expect(objects.allSatisfy { $0 != nil } && Set(objects).count == 2)
            #expect(try await !repository.reserveGoogleObject(passID: ids[0], objectID: objects[1]!))
        }
    }

    @Test(
        "a change to what every pass of an event shares is one class write, with one message, and no object write",
        arguments: Engine.available)
    func eventWideChange(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let repository = google.world.repository
            let template = try #require(try await repository.pass(id: google.passID))
            var passIDs = [google.passID]
            for index in 1...5 { passIDs.append(try await google.makePass(serial: "EVENT-\(index)", like: template)) }
            #expect(try await repository.queueGoogleWrite(passID: google.passID, now: google.world.clock.now))
            google.world.clock.advance(by: Date().timeIntervalSince(google.world.clock.now) + 1)
            let dispatcher = google.dispatcher()
            // A writer that meets the class not yet inserted by another is retried: count passes, not deliveries.
            #expect(try await google.drainAll(dispatcher) >= 6)
            #expect(try await google.written(passIDs) == 6)
            let classWrites = { google.standIn.received.filter { $0.path.contains("eventTicketClass") } }
            #expect(classWrites().map(\.method) == ["POST"], "one class for the event")
            let objectsBefore = google.objectWrites.count

            // The kick-off moves: every ticket's start, with a change message.
            let notice = try #require(
                PassChangeNotice(
                    field: PassField(key: "start", value: .text("21:00"), label: "Kick-off", changeMessage: "Now at %@")
                ))
            for passID in passIDs {
                _ = try await repository.applyChange(passID: passID, now: google.world.clock.now) { content in
                    var package = try PassPackage(archive: content)
                    var pass = try package.pass
                    var semantics = pass.semantics ?? PassSemantics()
                    semantics.json["eventStartDate"] = .string("2026-06-05T21:00:00+02:00")
                    pass.semantics = semantics
                    try package.setPass(pass)
                    return PassRewrite(
                        content: try package.archived(),
                        notices: [notice])
                }
            }
            google.world.clock.advance(by: 1)
            #expect(try await google.drainAll(dispatcher) >= 6)
            #expect(try await google.written(passIDs) == 6)
            #expect(classWrites().map(\.method) == ["POST", "PUT"], "one class write for every ticket")
            #expect(google.objectWrites.count == objectsBefore, "no ticket's own object changed")
            let record = try #require(try await repository.googleObject(passID: google.passID))
            let eventClassID = try #require(record.classID)
            let walletClass = try #require(google.standIn.resource(eventClassID))
            #expect(walletClass["dateTime"]?.jsonText.contains("2026-06-05T21:00:00+02:00") == true)
            guard case .array(let messages)? = walletClass["messages"] else {
                Issue.record("the class carries the change's message")
                return
            }
            #expect(messages.count == 1 && messages[0].jsonText.contains("TEXT_AND_NOTIFY"))
            let written = try await google.events(.googleWritten).suffix(1)
            #expect(written.first?.details["content_written"] == .bool(false))
        }
    }

    @Test(
        "another client sharing the pass type gets classes of its own: its passes never change this client's",
        arguments: Engine.available)
    func classesPerClient(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let repository = google.world.repository
            let template = try #require(try await repository.pass(id: google.passID))
            let other = try await repository.createClient(name: "Other")
            try await repository.grantPassType(passTypeID: template.passTypeID, clientID: other.id, now: Date())
            let user = try await repository.createUser(clientID: other.id, externalReference: nil)
            let theirs = try await google.makePass(
                serial: "OTHER-1", like: template, clientID: other.id, userID: user.id)
            #expect(try await repository.queueGoogleWrite(passID: google.passID, now: google.world.clock.now))
            google.world.clock.advance(by: Date().timeIntervalSince(google.world.clock.now) + 1)
            #expect(try await google.drainAll(google.dispatcher()) == 2)
            let mine = try #require(try await repository.googleObject(passID: google.passID)?.classID)
            let their = try #require(try await repository.googleObject(passID: theirs)?.classID)
            #expect(mine != their, "the same event name, two clients, two classes")
        }
    }

    @Test("changes made before a write is sent are written together", arguments: Engine.available)
    func changesCoalesce(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            for title in ["One", "Two", "Three"] {
                try await google.updater.update(passID: google.passID, PassChange(fields: ["event": .text(title)]))
            }
            #expect(try await google.dispatcher().drain() == 1)
            #expect(google.objectWrites.count == 2)
            #expect(try await google.object?["textModulesData"]?.jsonText.contains("Three") == true)
        }
    }

    @Test(
        "change messages travel in the object: three notify a day, earlier ones stay as TEXT, the newest 10 are kept",
        arguments: Engine.available)
    func notificationQuota(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let dispatcher = google.dispatcher()
            for gate in 1...15 {
                try await google.updater.update(
                    passID: google.passID,
                    PassChange(texts: [
                        "event": [.value: .plain(.text("Gate \(gate)")), .changeMessage: .plain(.text("Now at %@"))]
                    ]))
                #expect(try await dispatcher.drain() == 1)
            }
            let written = try await google.events(.googleWritten)
            #expect(written.count == 15, "every write succeeds")
            #expect(
                written.map(\.details["notified"]) == [1, 1, 1].map { .number($0) }
                    + Array(repeating: .number(0), count: 12))
            guard case .array(let messages)? = try await google.object?["messages"] else {
                Issue.record("the object carries its messages")
                return
            }
            #expect(messages.count == 10, "Google keeps 10: the newest")
            #expect(messages.last?.jsonText.contains("Now at Gate 15") == true)
            #expect(messages.first?.jsonText.contains("Now at Gate 6") == true)
            #expect(
                messages.allSatisfy { $0.jsonText.contains(#""messageType":"TEXT""#) }, "kept ones do not notify again")
            #expect(!google.standIn.received.contains { $0.status == 429 || $0.status == 400 })
            #expect(!google.standIn.received.contains { $0.path.hasSuffix("addMessage") }, "one call a change")

            google.world.clock.advance(by: 86_401)
            try await google.updater.update(
                passID: google.passID,
                PassChange(texts: [
                    "event": [.value: .plain(.text("Gate 16")), .changeMessage: .plain(.text("Now at %@"))]
                ]))
            #expect(try await dispatcher.drain() == 1)
            let last = try #require(try await google.events(.googleWritten).last)
            #expect(last.details["notified"] == .number(1), "a day later it notifies again")
            #expect(try await google.object?["messages"]?.jsonText.contains("TEXT_AND_NOTIFY") == true)
        }
    }

    @Test("a Google outage is retried after a backoff and the change is not lost", arguments: Engine.available)
    func outageIsRetried(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let dispatcher = google.dispatcher()
            google.standIn.script(
                [.unavailable, .unavailable], forPathsStartingWith: "/walletobjects/v1/eventTicketClass")
            google.standIn.script(
                [.unavailable, .unavailable], forPathsStartingWith: "/walletobjects/v1/genericClass")
            try await google.updater.update(passID: google.passID, PassChange(fields: ["event": .text("Hall B")]))
            #expect(try await dispatcher.drain() == 1)
            let failed = try #require(try await google.events(.googleFailed).first)
            #expect(failed.details["retry_in_seconds"] != nil)
            #expect(try await dispatcher.drain() == 0, "not due before its backoff")
            google.world.clock.advance(by: 3600)
            #expect(try await dispatcher.drain() == 1)
            #expect(try await google.events(.googleFailed).count == 2, "Google is still down")
            google.world.clock.advance(by: 3600)
            #expect(try await dispatcher.drain() == 1)
            #expect(try await google.object?["textModulesData"]?.jsonText.contains("Hall B") == true)
            #expect(try await google.events(.googleWritten).count == 1)
        }
    }

    @Test(
        "a write Google refuses for its content is kept as failed, with Google's message in the trace only",
        arguments: Engine.available)
    func refusedContent(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            google.standIn.script(
                [GoogleWalletStandIn.Answer(status: 400, errorName: "invalid")],
                forPathsStartingWith: "/walletobjects/v1/eventTicketClass")
            google.standIn.script(
                [GoogleWalletStandIn.Answer(status: 400, errorName: "invalid")],
                forPathsStartingWith: "/walletobjects/v1/genericClass")
            #expect(
                try await google.world.repository.queueGoogleWrite(passID: google.passID, now: google.world.clock.now))
            let dispatcher = google.dispatcher()
            #expect(try await dispatcher.drain() == 1)
            let failed = try #require(try await google.events(.googleFailed).first)
            #expect(failed.details["abandoned"] == .bool(true))
            #expect(failed.details["reason"] == .string("invalid"))
            let diagnosis = try await PassTrace(repository: google.world.repository, webServiceURL: nil)
                .diagnosis(passID: google.passID)
            #expect(diagnosis.contains { $0.code == "google_failed" && $0.message.contains("scripted") })
            google.world.clock.advance(by: 86_400)
            #expect(try await dispatcher.drain() == 0, "a failed write is not sent again")
        }
    }

    @Test("two replicas draining at once write a change once", arguments: Engine.available)
    func replicas(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            try await google.updater.update(passID: google.passID, PassChange(fields: ["event": .text("Hall C")]))
            let (first, second) = (google.dispatcher(), google.dispatcher())
            async let one = first.drain()
            async let two = second.drain()
            #expect(try await one + two == 1)
            #expect(google.objectWrites.count == 2, "one PUT (404) and one insert")
        }
    }

    @Test("a pass made under a pass type with a Google issuer is written at once", arguments: Engine.available)
    func newPass(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let repository = google.world.repository
            let first = try #require(try await repository.pass(id: google.passID))
            let tag = ClientTag(
                clientID: google.world.tag.clientID, userID: google.world.tag.userID, referenceID: "PASS-002",
                prontoTagID: "9002")
            try await repository.createTag(tag)
            let second = StoredPass(
                tagID: tag.id, passTypeID: first.passTypeID, serialNumber: "PASS-002", passContent: first.passContent)
            try await repository.createPass(second)
            google.world.clock.advance(by: Date().timeIntervalSince(google.world.clock.now) + 1)
            #expect(try await google.dispatcher().drain() == 1)
            #expect(try await repository.googleObject(passID: second.id) != nil)
        }
    }

    @Test(
        "clients sharing a pass type take turns before its cap: another client's write goes with the burst's first",
        arguments: Engine.available)
    func clientsTakeTurns(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let repository = google.world.repository
            let template = try #require(try await repository.pass(id: google.passID))
            for index in 0..<10 { _ = try await google.makePass(serial: "BURST-\(index)", like: template) }
            let other = try await repository.createClient(name: "Other")
            try await repository.grantPassType(passTypeID: template.passTypeID, clientID: other.id, now: Date())
            let user = try await repository.createUser(clientID: other.id, externalReference: "sam@example.com")
            let quiet = try await google.makePass(
                serial: "QUIET-1", like: template, clientID: other.id, userID: user.id)

            // The production caps: the pass type's cap is shared by both clients.
            let (perClient, perPassType) = (
                DeliveryDispatcher.googleWritesPerClient, DeliveryDispatcher.googleWritesPerPassType
            )
            let claimed = try await repository.claimDueGoogleWrites(
                now: Date().addingTimeInterval(1), limit: 8, perClient: perClient, perPassType: perPassType,
                leaseFor: 60)
            #expect(claimed.contains { $0.passID == quiet }, "the other client's write is claimed with the burst")
            #expect(claimed.count == perPassType, "the pass type's share, the other client's write among it")
            let more = try await repository.claimDueGoogleWrites(
                now: Date().addingTimeInterval(1), limit: 8, perClient: perClient, perPassType: perPassType,
                leaseFor: 60)
            #expect(more.isEmpty, "the pass type has its share in flight already")
        }
    }

    @Test(
        "a write waiting behind its pass's leased write does not hold its lane: the next pass's write is claimed",
        arguments: Engine.available)
    func blockedWriteKeepsLaneMoving(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let repository = google.world.repository
            let template = try #require(try await repository.pass(id: google.passID))
            let next = try await google.makePass(serial: "NEXT-1", like: template)
            try await google.world.database.sql.raw("DELETE FROM push_outbox WHERE kind = 'google'").run()
            let start = Date()
            func claim(at seconds: TimeInterval, limit: Int) async throws -> [UUID] {
                try await repository.claimDueGoogleWrites(
                    now: start.addingTimeInterval(seconds), limit: limit, perClient: 8, perPassType: 8, leaseFor: 60
                ).map(\.passID)
            }

            #expect(try await repository.queueGoogleWrite(passID: google.passID, now: start))
            #expect(try await claim(at: 1, limit: 1) == [google.passID])
            #expect(try await repository.queueGoogleWrite(passID: google.passID, now: start.addingTimeInterval(2)))
            #expect(try await repository.queueGoogleWrite(passID: next, now: start.addingTimeInterval(3)))
            #expect(
                try await claim(at: 4, limit: 1) == [next],
                "the older write of the leased pass waits; the lane's next write goes")
            #expect(try await claim(at: 5, limit: 8).isEmpty, "the first pass's write waits for its lease")
        }
    }

    @Test(
        "every lane (pass type and client) is found behind another's long backlog; given-up writes are skipped",
        arguments: Engine.available)
    func everyLaneIsFound(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let sql = google.world.database.sql
            try await sql.raw("DELETE FROM push_outbox WHERE kind = 'google'").run()
            let (typeA, typeB, typeC) = (UUID(), UUID(), UUID())
            let (first, second, third) = (UUID(), UUID(), UUID())
            var lanes = [(typeA, first, failed: false)]
            lanes += Array(repeating: (typeA, first, failed: false), count: 40)
            lanes += [(typeA, second, false), (typeB, first, true), (typeB, third, false), (typeC, second, false)]
            var passes: [UUID] = []
            for (index, lane) in lanes.enumerated() {
                passes.append(UUID())
                try await sql.insert(into: "push_outbox")
                    .columns(
                        "id", "pass_id", "pass_type_id", "client_id", "device_library_identifier", "attempts",
                        "next_attempt_at", "created_at", "kind", "failed_at"
                    )
                    .values(
                        SQLBind(UUID().uuidString), SQLBind(passes[index].uuidString), SQLBind(lane.0.uuidString),
                        SQLBind(lane.1.uuidString), SQLBind(""), SQLBind(Int64(0)), SQLBind(Int64(index)),
                        SQLBind(Int64(index)), SQLBind("google"), SQLBind(lane.failed ? Int64(index) : nil)
                    )
                    .run()
            }

            let claimed = try await google.world.repository.claimDueGoogleWrites(
                now: Date(), limit: 8, perClient: 4, perPassType: 4, leaseFor: 60)
            #expect(claimed.filter { $0.passTypeID == typeA }.count == 4, "the backlog's pass type has its cap")
            #expect(claimed.contains { $0.passID == passes[41] }, "the other client of the backlog's pass type")
            #expect(claimed.filter { $0.passTypeID == typeB }.count == 1, "the given-up write is not claimed")
            #expect(claimed.filter { $0.passTypeID == typeC }.count == 1)
            #expect(claimed.count == 6)
        }
    }

    @Test("a pass type without a Google issuer queues no write", arguments: Engine.available)
    func noIssuer(_ engine: Engine) async throws {
        try await ProvisioningWorld.with(engine) { world in
            let pass = try #require(try await world.repository.pass(tagID: world.tag.id))
            #expect(try await !world.repository.queueGoogleWrite(passID: pass.id, now: world.clock.now))
            let updater = PassUpdater(store: world.repository, clock: world.clock, trace: world.service.trace)
            try await updater.update(passID: pass.id, PassChange(fields: ["event": .text("Hall D")]))
            let rows = try await world.database.sql.raw("SELECT COUNT(*) AS n FROM push_outbox WHERE kind = 'google'")
                .first(decodingColumn: "n", as: Int64.self)
            #expect(rows == 0)
        }
    }
}
