import CofferTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

@Suite("Bulk changes: one call changes every pass that matches, or each pass of a list, as a job")
struct BulkChangeRoutesTests {
    typealias W = ManagementWorld

    /// Makes the client's passes `T-1`…`T-count` (event `Final` for odd numbers, `Semi` for even ones).
    static func makePasses(_ count: Int, _ client: any TestClientProtocol, _ world: W) async throws -> [UUID] {
        var passIDs: [UUID] = []
        for number in 1...count {
            let event = number % 2 == 1 ? "Final" : "Semi"
            let created = try await W.send(
                client, .post, "/api/v2/passes", token: world.token,
                body: #"{"reference_id":"T-\#(number)","fields":{"event":"\#(event)","seat":"\#(number)"}}"#)
            try #require(created.status == .created, "\(created.text)")
            passIDs.append(try W.state(created.body).passID)
        }
        return passIDs
    }

    static func job(_ data: Data) throws -> PassChangeJob {
        try ManagedPassState.makeDecoder().decode(PassChangeJob.self, from: data)
    }

    static func post(
        _ client: any TestClientProtocol, _ body: String, type: String = "application/json", token: String,
        key: String? = nil
    ) async throws -> Answer {
        var headers = W.headers(token, key: key)
        headers[.contentType] = type
        return try await Answer.send(client, .post, "/api/v2/passes/changes", headers: headers, body: body)
    }

    static func fields(of passID: UUID, in world: W) async throws -> [String: PassField.Value] {
        let pass = try #require(try await world.world.repository.pass(id: passID))
        let fields = try PassPackage(archive: pass.passContent).pass.fields
        return Dictionary(
            uniqueKeysWithValues: fields.keys.compactMap { key in fields.value(forKey: key).map { (key, $0) } })
    }

    @Test(
        "a match changes the passes whose fields match, skips the others and queues a push to each device",
        arguments: Engine.available)
    func match(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let passes = try await Self.makePasses(7, client, world)
            let repository = world.world.repository
            for (index, passID) in passes.prefix(3).enumerated() {
                _ = try await repository.register(
                    .pass, deviceLibraryIdentifier: "device-\(index)", pushToken: String(repeating: "a", count: 64),
                    documentID: passID, now: Date(), maximumDevices: 10)
            }
            let before = try #require(try await repository.pass(id: passes[0])).updateTag
            let body = #"{"match":{"fields":{"event":"Final"}},"change":{"fields":{"seat":"moved"}}}"#
            let made = try await Self.post(client, body, token: world.token)
            #expect(made.status == .accepted, "\(made.text)")
            let job = try Self.job(made.body)
            #expect(made.headers[.location] == "/api/v2/jobs/\(job.id.uuidString.lowercased())")
            #expect(job.state == .running)
            #expect(job.kind == .match)
            // The world's own pass, PASS-001, is the client's too.
            #expect(job.total == 8)
            var sizes: [Int] = []
            while let result = try await world.jobs.runBatch() { sizes.append(result.committed) }
            #expect(sizes == [3, 3, 2])

            let read = try await W.send(client, .get, "/api/v2/jobs/\(job.id)", token: world.token)
            #expect(read.status == .ok)
            let done = try Self.job(read.body)
            #expect(done.state == .finished)
            #expect(done.finishedAt != nil)
            #expect(
                [done.matched, done.changed, done.skipped, done.failed, done.pushes, done.done]
                    == [Int]([4, 4, 4, 0, 2, 8]))
            for (index, passID) in passes.enumerated() {
                let fields = try await Self.fields(of: passID, in: world)
                #expect(fields["seat"] == .text(index % 2 == 0 ? "moved" : "\(index + 1)"))
            }
            #expect(try #require(try await repository.pass(id: passes[0])).updateTag > before)
            // Devices 0 and 2 hold Final passes; device 1 a Semi one.
            let pushed = try await world.world.database.sql.raw(
                "SELECT device_library_identifier FROM push_outbox WHERE kind = 'apns' ORDER BY 1"
            ).all(decodingColumn: "device_library_identifier", as: String.self)
            #expect(pushed == ["device-0", "device-2"])
            let events = try await repository.latestPassEvents(passID: passes[0], limit: 5)
            let changed = try #require(events.first { $0.kind == .changed })
            #expect(changed.details["via"] == .string("bulk_change"))
            #expect(events.contains { $0.kind == .pushQueued })
        }
    }

    @Test("a CSV changes each line's pass and lists the lines that failed with why", arguments: Engine.available)
    func csv(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let passes = try await Self.makePasses(3, client, world)
            // As a spreadsheet exports it: CRLF, quoted cells with commas and quotes.
            let csv =
                [
                    "reference_id,seat,voided", #"T-1,"Row 1, seat 2","#, "T-404,9,", "T-2,,true",
                    #"T-3,"say ""hi""","#,
                ].joined(separator: "\r\n") + "\r\n"
            let made = try await Self.post(client, csv, type: "text/csv; charset=utf-8", token: world.token)
            #expect(made.status == .accepted, "\(made.text)")
            let job = try Self.job(made.body)
            #expect(job.kind == .list)
            #expect(job.total == 4)
            try await world.runJobs()
            let read = try Self.job(
                try await W.send(client, .get, "/api/v2/jobs/\(job.id)", token: world.token).body)
            #expect([read.total, read.changed, read.failed, read.matched] == [Int]([4, 3, 1, 3]))
            // The item is the line in the CSV, its header being line 1.
            #expect(read.failures == [.init(item: 3, target: "reference_id T-404", reason: "no such tag with a pass")])
            #expect(try await Self.fields(of: passes[0], in: world)["seat"] == .text("Row 1, seat 2"))
            #expect(try await Self.fields(of: passes[2], in: world)["seat"] == .text(#"say "hi""#))
            let voided = try PassPackage(
                archive: try #require(try await world.world.repository.pass(id: passes[1])).passContent
            ).pass.voided
            #expect(voided == true)
        }
    }

    @Test("JSON lines change each line's pass; a change a pass cannot take fails its line alone")
    func jsonLines() async throws {
        try await W.run(.sqliteFile) { client, world in
            let passes = try await Self.makePasses(3, client, world)
            let lines = """
                {"reference_id":"T-1","fields":{"seat":"first"}}

                {"reference_id":"T-2","fields":{"event":"Replay"}}
                {"reference_id":"T-3","fields":{"nope":"x"}}

                """
            let made = try await Self.post(client, lines, type: "application/x-ndjson", token: world.token)
            #expect(made.status == .accepted, "\(made.text)")
            try await world.runJobs()
            #expect(try await Self.fields(of: passes[0], in: world)["seat"] == .text("first"))
            #expect(try await Self.fields(of: passes[1], in: world)["event"] == .text("Replay"))
            let job = try Self.job(
                try await W.send(client, .get, "/api/v2/jobs/\(Self.job(made.body).id)", token: world.token).body)
            #expect(job.changed == 2)
            #expect(job.failures.map(\.item) == [4], "the line in the body, blank lines counted")
            #expect(job.failures.first?.reason.contains("no field 'nope'") == true)
        }
    }

    @Test("bad requests are refused before any job is made, each saying what is wrong")
    func refusals() async throws {
        try await W.run(.sqliteFile) { client, world in
            let cases: [(String, String, HTTPResponse.Status, String)] = [
                ("{", "application/json", .badRequest, "not a JSON object"),
                (#"{"change":{"voided":true}}"#, "application/json", .badRequest, "'match'"),
                (#"{"match":{},"change":{}}"#, "application/json", .badRequest, "change"),
                (#"{"match":{"colour":"red"},"change":{"voided":true}}"#, "application/json", .badRequest, "colour"),
                (
                    #"{"match":{"pass_type_id":"\#(UUID())"},"change":{"voided":true}}"#, "application/json",
                    .notFound, "pass type"
                ),
                ("seat\nT-1", "text/csv", .badRequest, "first column"),
                ("reference_id,seat\nT-1,1,2", "text/csv", .badRequest, "line 2"),
                ("reference_id,seat\n", "text/csv", .badRequest, "no line"),
                (#"{"fields":{"seat":"1"}}"#, "application/x-ndjson", .badRequest, "line 1"),
                (#"{"reference_id":"T-1","voided":"yes"}"#, "application/x-ndjson", .badRequest, "line 1"),
                ("reference_id,seat", "text/plain", .unsupportedMediaType, "unsupported_media_type"),
                ("reference_id,seat\nT-1,a\nT-1,b", "text/csv", .badRequest, "line 3 names the tag of line 2"),
                // A row of a million cells is refused at its second cell past the header's, never padded.
                (
                    "reference_id,seat\nT-1" + String(repeating: ",", count: 1_000_000), "text/csv", .badRequest,
                    "line 2"
                ),
                (
                    #"{"reference_id":"T-1","semantics":{"venueName":"\#(String(repeating: "v", count: 70_000))"}}"#,
                    "application/x-ndjson", .badRequest, "64 KiB"
                ),
                (
                    #"{"match":{},"change":{"semantics":{"venueName":"\#(String(repeating: "v", count: 70_000))"}}}"#,
                    "application/json", .contentTooLarge, "too_large"
                ),
            ]
            for (body, type, status, mention) in cases {
                let answer = try await Self.post(client, body, type: type, token: world.token)
                #expect(answer.status == status, "\(body): \(answer.text)")
                #expect(answer.text.contains(mention), "\(body): \(answer.text)")
            }
            let jobs = try await world.world.database.sql.raw("SELECT id FROM pass_change_jobs").all()
            #expect(jobs.isEmpty)
            let unauthenticated = try await Answer.send(
                client, .post, "/api/v2/passes/changes", headers: [.contentType: "application/json"],
                body: #"{"match":{},"change":{"voided":true}}"#)
            #expect(unauthenticated.status == .unauthorized)
        }
    }

    @Test("a repeated idempotency key answers the same job; a client has at most two jobs unfinished")
    func idempotencyAndCap() async throws {
        try await W.run(.sqliteFile) { client, world in
            let body = #"{"match":{},"change":{"fields":{"event":"Moved"}}}"#
            let first = try await Self.post(client, body, token: world.token, key: "job-1")
            let again = try await Self.post(client, body, token: world.token, key: "job-1")
            #expect(first.status == .accepted)
            #expect(again.status == .accepted)
            #expect(again.headers[HTTPField.Name("Idempotency-Replayed")!] == "true")
            #expect(try Self.job(again.body).id == Self.job(first.body).id)
            let other = try await Self.post(
                client, #"{"match":{},"change":{"voided":true}}"#, token: world.token, key: "job-1")
            #expect(other.status == .unprocessableContent)

            let second = try await Self.post(client, #"{"match":{},"change":{"voided":true}}"#, token: world.token)
            #expect(second.status == .accepted)
            let third = try await Self.post(client, #"{"match":{},"change":{"voided":false}}"#, token: world.token)
            #expect(third.status == .tooManyRequests)
            #expect(third.errorCode == "limit_reached")
            try await world.runJobs()
            let fourth = try await Self.post(client, #"{"match":{},"change":{"voided":false}}"#, token: world.token)
            #expect(fourth.status == .accepted)
        }
    }

    @Test("another client's job is 404, as is an identifier that is not one")
    func scoping() async throws {
        try await W.run(.sqliteFile) { client, world in
            let made = try await Self.post(client, #"{"match":{},"change":{"voided":true}}"#, token: world.token)
            let id = try Self.job(made.body).id
            let other = try await W.send(client, .get, "/api/v2/jobs/\(id)", token: world.otherToken)
            #expect(other.status == .notFound)
            let garbage = try await W.send(client, .get, "/api/v2/jobs/not-a-job", token: world.token)
            #expect(garbage.status == .notFound)
            let none = try await W.send(client, .get, "/api/v2/jobs/\(id)", token: nil)
            #expect(none.status == .unauthorized)
        }
    }
}
