import CofferTestSupport
import Foundation
import HTTPTypes
import SQLKit
import Testing
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

@Suite("Bulk change batches: each pass changed once, whoever runs the batch and whatever changes it meanwhile")
struct PassChangeJobRunsTests {
    typealias W = ManagementWorld
    typealias Routes = BulkChangeRoutesTests

    /// A match job that sets `seat` to `seat` on every pass of the world's client.
    static func submit(_ world: W, seat: String, clientID: UUID? = nil) async throws -> PassChangeJob {
        let request = try PassChangeJobRequest(
            match: PassChangeMatch(), change: PassChange(fields: ["seat": .text(seat)]))
        let stored = try await world.jobs.submit(request, clientID: clientID ?? world.clientID, idempotencyKey: nil)
        return try Routes.job(stored.body)
    }

    @Test(
        "a batch whose lease ran out stores only the items no other runner took since",
        arguments: Engine.available)
    func lostLease(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let passes = try await Routes.makePasses(2, client, world)
            let repository = world.world.repository
            let job = try await Self.submit(world, seat: "late")
            let now = Date()
            let first = try #require(
                try await repository.claimPassChangeBatch(now: now, limit: 10, leaseFor: 1, jobID: nil))
            #expect(first.items.map(\.attempts) == [1, 1, 1])
            // The first runner stalls past its lease; a second takes the first item again, alone, as it was claimed
            // before.
            let second = try #require(
                try await repository.claimPassChangeBatch(
                    now: now.addingTimeInterval(2), limit: 10, leaseFor: 30, jobID: nil))
            #expect(second.items.map(\.seq) == [first.items[0].seq])
            #expect(second.items.map(\.attempts) == [2])
            let outcomes = { (batch: PassChangeBatch) in
                batch.items.map { item -> PassChangeOutcome in
                    guard let pass = item.pass else { return .failed("none") }
                    var package = try! PassPackage(archive: pass.content)
                    var json = try! package.pass
                    _ = json.fields.setValue(.text("late"), forKey: "seat")
                    try! package.setPass(json)
                    return .changed(PassRewrite(content: try! package.archived()), details: [:])
                }
            }
            let stale = try await repository.commitPassChangeBatch(
                first, outcomes: outcomes(first), now: now.addingTimeInterval(3), redo: { _, _ in .skipped })
            #expect(stale.committed == 2, "the items the second runner did not take")
            let fresh = try await repository.commitPassChangeBatch(
                second, outcomes: outcomes(second), now: now.addingTimeInterval(3), redo: { _, _ in .skipped })
            #expect(fresh.committed == 1)
            #expect(fresh.finishedJob)
            #expect(try await world.runJobs() == 0)
            // Each pass changed once: one `changed` event each.
            for passID in passes {
                let changes = try await repository.latestPassEvents(passID: passID, limit: 20).filter {
                    $0.kind == .changed
                }
                #expect(changes.count == 1)
            }
            let done = try #require(
                try await repository.passChangeJob(id: job.id, clientID: world.clientID, failures: 0))
            #expect(done.state == .finished)
            #expect(done.changed + done.failed == 3)
        }
    }

    @Test(
        "a pass changed between a batch's claim and its commit keeps that change and takes the job's too",
        arguments: Engine.available)
    func changedMeanwhile(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let passes = try await Routes.makePasses(1, client, world)
            let repository = world.world.repository
            _ = try await Self.submit(world, seat: "from the job")
            let batch = try #require(
                try await repository.claimPassChangeBatch(now: Date(), limit: 10, leaseFor: 30, jobID: nil))
            let patched = try await W.send(
                client, .patch, "/api/v2/passes/T-1", token: world.token, body: #"{"fields":{"event":"Moved"}}"#)
            #expect(patched.status == .ok)
            // The batch's outcomes were worked out on the pass as claimed, before the PATCH.
            /// The seat change to `content`; the world's own pass has no seat.
            @Sendable func seat(_ value: String, _ content: Data) -> PassChangeOutcome {
                guard
                    let package = try? PassPackage(archive: content),
                    let (rewrite, details) = try? PassUpdater.applying(
                        PassChange(fields: ["seat": .text(value)]), to: package)
                else { return .failed("no seat") }
                return .changed(rewrite, details: details)
            }
            let outcomes = try batch.items.map { seat("stale", try #require($0.pass).content) }
            let result = try await repository.commitPassChangeBatch(batch, outcomes: outcomes, now: Date()) {
                seat("from the job", $1)
            }
            #expect(result.committed == 2)
            let fields = try await Routes.fields(of: passes[0], in: world)
            #expect(fields["event"] == .text("Moved"))
            #expect(fields["seat"] == .text("from the job"))
        }
    }

    @Test("two clients' jobs take turns batch by batch, and a single change goes through between them")
    func turns() async throws {
        try await W.run(.sqliteFile) { client, world in
            _ = try await Routes.makePasses(5, client, world)
            // The other client's passes: shared the pass type first.
            let repository = world.world.repository
            let passType = try #require(
                try await repository.passTypes().first { $0.passTypeIdentifier == "pass.dev.coffer.server" })
            try await repository.grantPassType(passTypeID: passType.id, clientID: world.otherClientID, now: Date())
            for number in 1...5 {
                let created = try await W.send(
                    client, .post, "/api/v2/passes", token: world.otherToken, body: #"{"reference_id":"O-\#(number)"}"#)
                try #require(created.status == .created, "\(created.text)")
            }
            let mine = try await Self.submit(world, seat: "A")
            let theirs = try await Self.submit(world, seat: "B", clientID: world.otherClientID)
            _ = try await world.jobs.runBatch()
            _ = try await world.jobs.runBatch()
            let mineSoFar = try await repository.passChangeJob(id: mine.id, clientID: world.clientID, failures: 0)
            let theirsSoFar = try await repository.passChangeJob(
                id: theirs.id, clientID: world.otherClientID, failures: 0)
            #expect(mineSoFar?.done == 3, "each job had one batch")
            #expect(theirsSoFar?.done == 3, "each job had one batch")
            // A single change of the other client commits while both jobs have items left.
            let patched = try await W.send(
                client, .patch, "/api/v2/passes/O-1", token: world.otherToken, body: #"{"fields":{"event":"Now"}}"#)
            #expect(patched.status == .ok)
            let patchedPass = try W.state(patched.body).passID
            #expect(try await Routes.fields(of: patchedPass, in: world)["event"] == .text("Now"))
            try await world.runJobs()
            let finished = try #require(
                try await repository.passChangeJob(id: theirs.id, clientID: world.otherClientID, failures: 0))
            #expect(finished.state == .finished)
            #expect(try await Routes.fields(of: patchedPass, in: world)["event"] == .text("Now"))
        }
    }

    @Test("an item claimed more than three times without a commit fails, and its job finishes")
    func poisonedItem() async throws {
        try await W.run(.sqliteFile) { client, world in
            _ = try await Routes.makePasses(1, client, world)
            let repository = world.world.repository
            let job = try await Self.submit(world, seat: "never")
            // Three runners claim and die: each lease has run out long ago.
            let past = Date().addingTimeInterval(-600)
            for attempt in 0..<PassChangeJobs.maximumAttempts {
                let batch = try await repository.claimPassChangeBatch(
                    now: past.addingTimeInterval(Double(attempt) * 10), limit: 10, leaseFor: 1, jobID: nil)
                #expect(batch?.items.count == (attempt == 0 ? 2 : 1))
            }
            try await world.runJobs()
            let done = try #require(
                try await repository.passChangeJob(id: job.id, clientID: world.clientID, failures: 10))
            #expect(done.state == .finished)
            #expect(done.failures.first?.reason.contains("3 attempts") == true)
            #expect(done.failed >= 1)
        }
    }

    @Test("a finished job tells the client's endpoints that take job.finished, and goes with the trace's retention")
    func finishedWebhookAndPurge() async throws {
        try await W.run(.sqliteFile) { client, world in
            _ = try await Routes.makePasses(2, client, world)
            let repository = world.world.repository
            let endpoint = WebhookEndpoint(
                clientID: world.clientID, url: "https://hooks.example.com/jobs", eventTypes: [.jobFinished],
                createdAt: Date())
            #expect(try await repository.createWebhookEndpoint(endpoint, maximum: 10))
            let job = try await Self.submit(world, seat: "done")
            try await world.runJobs()
            let payloads = try await world.world.database.sql.raw(
                "SELECT payload FROM push_outbox WHERE kind = 'webhook' AND event_type = 'job.finished'"
            ).all(decodingColumn: "payload", as: String.self)
            #expect(payloads.count == 1)
            let body = try JSONDecoder().decode(JSONValue.self, from: Data(try #require(payloads.first).utf8))
            guard case .object(let object) = body, case .object(let data)? = object["data"],
                case .object(let reported)? = data["job"]
            else { Issue.record("not a job event: \(payloads)"); return }
            #expect(reported["id"] == .string(job.id.uuidString))
            #expect(reported["changed"] == .number(2))
            #expect(reported["failed"] == .number(1), "the world's own pass has no seat")
            #expect(reported["state"] == .string("finished"))

            #expect(try await repository.deleteFinishedPassChangeJobs(before: Date.distantPast, limit: 10) == 0)
            let later = Date().addingTimeInterval(60)
            var deleted = 0
            while case let count = try await repository.deleteFinishedPassChangeJobs(before: later, limit: 2), count > 0
            {
                deleted += count
            }
            #expect(deleted == 4, "three items, two at a time, then the job")
            #expect(try await repository.passChangeJob(id: job.id, clientID: world.clientID, failures: 0) == nil)
        }
    }
}
