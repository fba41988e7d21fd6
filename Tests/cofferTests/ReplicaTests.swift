import CofferTestSupport
import Foundation
import SQLKit
import Secrets
import Testing
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

@Suite(
    "Two coffer serve replicas on one PostgreSQL database share sessions, signing keys and API users",
    .serialized,
    .enabled(if: TestPostgreSQL.url != nil, "needs PostgreSQL: set COFFER_TEST_POSTGRES_URL (.ci/run does)"))
struct ReplicaTests {
    let directory: TemporaryDirectory
    let coffer: URL
    let databaseURL: String
    /// What both replicas and the admin commands run with: the database, and the store key as a file.
    let environment: [String: String]

    init() async throws {
        directory = try TemporaryDirectory()
        coffer = try ChildProcess.executable(named: "coffer")
        databaseURL = try await Self.makeDatabase()
        let keyFile = directory.appending("store.key")
        try EncryptedFileBackend.createKeyFile(at: keyFile)
        environment = [
            "DATABASE_URL": databaseURL, "COFFER_KEY_FILE": keyFile.path, "COFFER_ISSUANCE_RATE_LIMIT": "0",
        ]
    }

    /// A new, empty database on the test server, so that tests do not see each other's rows.
    static func makeDatabase() async throws -> String {
        let name = "replicas_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let server = try WalletDatabase.open(url: TestPostgreSQL.url!)
        do {
            try await server.sql.raw("CREATE DATABASE \(unsafeRaw: name)").run()
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
        var url = URLComponents(string: TestPostgreSQL.url!)!
        url.path = "/" + name
        return url.string!
    }

    /// Runs `body` on a connection to the test's database.
    func withDatabase<Result>(_ body: (WalletDatabase) async throws -> Result) async throws -> Result {
        let database = try WalletDatabase.open(url: databaseURL)
        do {
            let result = try await body(database)
            try await database.shutdown()
            return result
        } catch {
            try await database.shutdown()
            throw error
        }
    }

    /// Starts a replica with a data directory of its own; returns it and its base URL.
    func startReplica(_ name: String, _ extra: [String] = []) async throws -> (BackgroundProcess, String) {
        let server = try BackgroundProcess(
            coffer,
            ["serve", "--port", "0", "--data-dir", directory.appending(name).path, "--log-format", "json"] + extra,
            environment: environment)
        let port = try await server.waitForOutput(matching: #"listening on 127\.0\.0\.1:(\d+)"#)
        return (server, "http://127.0.0.1:\(port)/api/v2/in_app_provisioning")
    }

    /// Runs `coffer admin …` beside replica A (its data directory), on a thread of its own.
    func admin(_ arguments: String...) async throws -> String {
        try await admin(arguments)
    }

    /// Runs `coffer admin …` beside replica A with `arguments`.
    func admin(_ arguments: [String]) async throws -> String {
        let outcome = try await ChildProcess.runDetached(
            coffer, ["admin"] + arguments + ["--data-dir", directory.appending("a").path], environment: environment)
        try #require(outcome.status == 0, "coffer admin \(arguments.joined(separator: " ")): \(outcome.errorOutput)")
        return outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `coffer admin seed-demo --json`: a client, an API token and a tag with a pass of the development pass type.
    func seedDemo() async throws -> [String: String] {
        let seeded = try JSONSerialization.jsonObject(with: Data(try await admin("seed-demo", "--json").utf8))
        let fields = try #require(seeded as? [String: Any])
        return fields.compactMapValues { $0 as? String }
    }

    /// Asks `base` for issuer data for `tag` with `token`; returns the status and the response's fields.
    func issue(_ base: String, token: String, tag: String) async throws -> (status: Int, body: [String: String]) {
        let (body, status) = try await curl([
            "-u", "\(token):", "-H", "content-type: application/json", "-d", "{\"tag_id\":\"\(tag)\"}",
            "\(base)/issuer_data",
        ])
        return (status, (try? JSONDecoder().decode([String: String].self, from: body)) ?? [:])
    }

    /// Runs curl (10 s at most); returns the body and the status (0 when there was no answer).
    func curl(_ arguments: [String]) async throws -> (Data, Int) {
        let outcome = try await ChildProcess.runDetached(
            URL(fileURLWithPath: "/usr/bin/curl"), ["-sS", "--max-time", "10", "-w", "\n%{http_code}"] + arguments)
        var lines = outcome.standardOutput.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let status = Int(String(decoding: lines.removeLast(), as: UTF8.self)) ?? 0
        return (Data(lines.joined(separator: [UInt8(ascii: "\n")])), outcome.status == 0 ? status : 0)
    }

    /// The session identifier inside base64 issuer data.
    func session(of response: [String: String]) throws -> String {
        let data = try #require(response["issuer_data"].flatMap { Data(base64Encoded: $0) })
        let binding = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(binding["sessionIdentifier"] as? String)
    }

    /// Polls `condition` every half second until it holds or `limit` has passed; returns whether it held.
    func eventually(within limit: Duration, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while true {
            if try await condition() { return true }
            if ContinuousClock.now >= deadline { return false }
            try await Task.sleep(for: .milliseconds(500))
        }
    }

    @Test("four processes started together on one empty database all migrate it, and each migration runs once")
    func concurrentMigrations() async throws {
        let outcomes = try await withThrowingTaskGroup(of: ChildProcess.Outcome.self) { group in
            for index in 0..<4 {
                group.addTask {
                    try await ChildProcess.runDetached(
                        coffer, ["admin", "client", "list", "--data-dir", directory.appending("m\(index)").path],
                        environment: environment)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for outcome in outcomes { #expect(outcome.status == 0, "\(outcome.errorOutput)") }
        let versions = try await withDatabase { database in
            try await database.sql.select().column("version").from("coffer_schema_versions").orderBy("version")
                .all(decodingColumn: "version", as: Int.self)
        }
        #expect(versions == Array(1...SchemaMigrator.latestVersion))
    }

    @Test(
        "issuer data from A, callback on B: 32 concurrent callbacks for one session across replicas bind once"
    )
    func callbackOnTheOtherReplica() async throws {
        let (a, baseA) = try await startReplica("a")
        let (b, baseB) = try await startReplica("b", ["--no-development-identity"])
        let seeded = try await seedDemo()
        let issued = try await issue(baseA, token: seeded["api_token"]!, tag: seeded["tag_id"]!)
        try #require(issued.status == 200, "\(issued.body)")
        let session = try session(of: issued.body)

        // One curl sends the 32 callbacks at once, alternating between the replicas.
        var arguments = [
            "-sS", "--max-time", "30", "-Z", "--parallel-immediate", "--parallel-max", "32", "-H",
            "content-type: application/json", "-d", #"{"issuerBindingData":"0a0b0c","keyHash":"ff00"}"#, "-w",
            "%{http_code}\n",
        ]
        for index in 0..<32 {
            arguments += [
                "-o", "/dev/null", "\(index.isMultiple(of: 2) ? baseA : baseB)/callback?sessionIdentifier=\(session)",
            ]
        }
        let outcome = try await ChildProcess.runDetached(URL(fileURLWithPath: "/usr/bin/curl"), arguments)
        let statuses = outcome.output.split(separator: "\n").compactMap { Int($0) }
        #expect(statuses.count == 32, "\(outcome.errorOutput)")
        #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
        #expect(statuses.allSatisfy { $0 == 200 || (400..<500).contains($0) }, "\(statuses)")
        #expect(try await a.stop() == 0)
        #expect(try await b.stop() == 0)
    }

    @Test(
        "replicas started together on an empty database, each with its own data directory, share one development identity"
    )
    func developmentIdentityShared() async throws {
        let names = ["d1", "d2", "d3"]
        // Spawned before any is waited for: they start at once.
        let replicas = try names.map { name in
            try BackgroundProcess(
                coffer, ["serve", "--port", "0", "--data-dir", directory.appending(name).path, "--log-format", "json"],
                environment: environment)
        }
        for replica in replicas { _ = try await replica.waitForOutput(matching: #"listening on 127\.0\.0\.1:(\d+)"#) }
        let roots = try names.map {
            try Data(contentsOf: directory.appending($0).appendingPathComponent("development-root.pem"))
        }
        #expect(Set(roots).count == 1, "each replica wrote the root of the one identity the database keeps")
        let types = try await admin("pass-type", "list")
        #expect(types.components(separatedBy: "pass.dev.coffer.local").count == 2, "\(types)")
        for replica in replicas { #expect(try await replica.stop() == 0) }
    }

    @Test("a pass type imported beside A signs on B, and its renewed certificate replaces it on B within 10 s")
    func importReachesTheOtherReplica() async throws {
        let (a, _) = try await startReplica("a")
        let (b, baseB) = try await startReplica("b", ["--no-development-identity"])
        // Two hierarchies with different roots: which one verifies tells which certificate B signed with.
        let hierarchies = try await ChildProcess.detached {
            (try OpenSSL.Hierarchy(in: TemporaryDirectory()), try OpenSSL.Hierarchy(in: TemporaryDirectory()))
        }
        let passTypeID = try await importIdentity(from: hierarchies.0, named: "first")
        let token = try await issuingClient(passTypeID: passTypeID)
        #expect(
            try await signed(at: baseB, token: token, by: hierarchies.0), "B signs with the identity imported beside A")
        _ = try await importIdentity(from: hierarchies.1, named: "renewed")
        #expect(
            try await eventually(within: .seconds(10)) { try await signed(at: baseB, token: token, by: hierarchies.1) })
        #expect(try await a.stop() == 0)
        #expect(try await b.stop() == 0)
    }

    @Test(
        "a renewal staged beside A waits, then after `activate` B signs with it within seconds and serves passes it signed"
    )
    func stagedRenewalAcrossReplicas() async throws {
        let (a, _) = try await startReplica("a")
        let (b, baseB) = try await startReplica("b", ["--no-development-identity"])
        let hierarchies = try await ChildProcess.detached {
            (try OpenSSL.Hierarchy(in: TemporaryDirectory()), try OpenSSL.Hierarchy(in: TemporaryDirectory()))
        }
        let passTypeID = try await importIdentity(from: hierarchies.0, named: "current")
        let token = try await issuingClient(passTypeID: passTypeID)
        #expect(try await signed(at: baseB, token: token, by: hierarchies.0))
        _ = try await importIdentity(from: hierarchies.1, named: "next", "--next")
        try await Task.sleep(for: .seconds(1))
        #expect(try await signed(at: baseB, token: token, by: hierarchies.0), "a staged identity signs nothing yet")

        _ = try await admin("pass-type", "activate", Self.replicaPassType)
        #expect(
            try await eventually(within: .seconds(5)) { try await signed(at: baseB, token: token, by: hierarchies.1) })
        let passURL = baseB.replacingOccurrences(of: "/in_app_provisioning", with: "/passes/R-1/pkpass")
        let (pkpass, status) = try await curl(["-u", "\(token):", passURL])
        #expect(status == 200)
        let directory = directory
        let verified = try await ChildProcess.detached {
            (
                try OpenSSL.verify(pkpass: pkpass, root: hierarchies.1.rootPEM, in: directory).outcome.status,
                try OpenSSL.verify(pkpass: pkpass, root: hierarchies.0.rootPEM, in: directory).outcome.status
            )
        }
        #expect(verified.0 == 0, "the pass fetched after the switch is signed by the new identity")
        #expect(verified.1 != 0)
        #expect(try await a.stop() == 0)
        #expect(try await b.stop() == 0)
    }

    static let replicaPassType = "pass.com.example.replicas"

    /// Imports a leaf of `hierarchy` for ``replicaPassType`` beside A with `extra` arguments; returns the output.
    func importIdentity(from hierarchy: OpenSSL.Hierarchy, named name: String, _ extra: String...) async throws
        -> String
    {
        let identifier = Self.replicaPassType
        let leaf = try await ChildProcess.detached {
            try hierarchy.leaf(userID: identifier, team: "REPLICA001", marker: identifier)
        }
        let certificate = directory.appending("\(name).pem")
        let key = directory.appending("\(name).key")
        let wwdr = directory.appending("\(name)-wwdr.pem")
        try leaf.certificate.write(to: certificate)
        try leaf.key.write(to: key)
        try hierarchy.intermediatePEM.write(to: wwdr)
        return try await admin(
            ["pass-type", "import", "--certificate", certificate.path, "--key", key.path, "--wwdr", wwdr.path] + extra)
    }

    /// A client with an API user and the tag `R-1` with a pass of `passTypeID`; returns the API token.
    func issuingClient(passTypeID: String) async throws -> String {
        let client = try await admin("client", "create", "--name", "Replicas")
        let token = try await admin("api-user", "create", "--client", client)
        _ = try await admin("pass-type", "share", "--pass-type", passTypeID, "--client", client)
        _ = try await admin("tag", "create", "--client", client, "--reference-id", "R-1", "--pass-type", passTypeID)
        return token
    }

    /// Whether issuer data for `R-1` from `base` verifies against `hierarchy`'s root.
    func signed(at base: String, token: String, by hierarchy: OpenSSL.Hierarchy) async throws -> Bool {
        let issued = try await issue(base, token: token, tag: "R-1")
        guard issued.status == 200, let content = issued.body["issuer_data"].flatMap({ Data(base64Encoded: $0) }),
            let signature = issued.body["signature"].flatMap({ Data(base64Encoded: $0) })
        else { return false }
        let directory = directory
        let verified = try await ChildProcess.detached {
            try OpenSSL.verify(signature: signature, content: content, root: hierarchy.rootPEM, in: directory)
        }
        return verified.status == 0
    }

    @Test("an API user revoked beside A is refused by both replicas within 10 s")
    func revocationReachesBothReplicas() async throws {
        let (a, baseA) = try await startReplica("a")
        let (b, baseB) = try await startReplica("b", ["--no-development-identity"])
        let seeded = try await seedDemo()
        let created = try await admin("api-user", "create", "--client", seeded["client_id"]!, "--json")
        let apiUser = try #require(try JSONSerialization.jsonObject(with: Data(created.utf8)) as? [String: Any])
        let token = try #require(apiUser["token"] as? String)
        let id = try #require((apiUser["api_user"] as? [String: Any])?["id"] as? String)
        for base in [baseA, baseB] {
            #expect(try await issue(base, token: token, tag: seeded["tag_id"]!).status == 200)
        }
        _ = try await admin("api-user", "revoke", id)
        for base in [baseA, baseB] {
            #expect(
                try await eventually(within: .seconds(10)) {
                    try await issue(base, token: token, tag: seeded["tag_id"]!).status == 401
                }, "\(base)")
        }
        // The other token of the client still works on both.
        for base in [baseA, baseB] {
            #expect(try await issue(base, token: seeded["api_token"]!, tag: seeded["tag_id"]!).status == 200)
        }
        #expect(try await a.stop() == 0)
        #expect(try await b.stop() == 0)
    }

    @Test("kill -9 of one replica while a client issues against both loses no acknowledged issuance")
    func killedReplicaLosesNothing() async throws {
        let (a, baseA) = try await startReplica("a")
        let (b, baseB) = try await startReplica("b", ["--no-development-identity"])
        // A tag per request: a new issuance for a pass ends that pass's open session.
        let seeded = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try await admin("seed-demo", "--tags", "60", "--json").utf8)) as? [String: Any])
        let token = try #require(seeded["api_token"] as? String)
        let tags = try #require(seeded["tag_ids"] as? [String])
        try #require(tags.count == 60)

        // The client issues in a loop, alternating between the replicas; B is killed while it runs.
        let acknowledged = Recorder()
        let refusedOnA = Recorder()
        let client = Task {
            for (index, tag) in tags.enumerated() {
                let onA = index.isMultiple(of: 2)
                let issued = try await issue(onA ? baseA : baseB, token: token, tag: tag)
                if issued.status == 200 {
                    acknowledged.append(try session(of: issued.body))
                } else if onA {
                    refusedOnA.append("request \(index): \(issued.status)")
                }
            }
        }
        while acknowledged.values.count < 10 { try await Task.sleep(for: .milliseconds(20)) }
        try await b.stop(signal: SIGKILL)
        try await client.value
        #expect(refusedOnA.values.isEmpty, "\(refusedOnA.values)")
        #expect(acknowledged.values.count >= 30 && acknowledged.values.count < 60)

        let sessions = acknowledged.values
        let stored = try await withDatabase { database in
            try await database.sql.raw(
                """
                SELECT COUNT(*) AS n FROM provisioning_sessions WHERE id_hash IN (SELECT sha256(convert_to(s, 'UTF8')) \
                FROM unnest(\(bind: sessions)::text[]) AS s)
                """
            ).first()?.decode(column: "n", as: Int.self)
        }
        #expect(stored == sessions.count, "every issuer data the client received has its session row")
        #expect(try await a.stop() == 0)
    }

    @Test("kill -9 of the replica doing a bulk change: the other finishes it, each pass changed and pushed once")
    func killedReplicaMidJob() async throws {
        let (a, baseA) = try await startReplica("a")
        let (b, _) = try await startReplica("b", ["--no-development-identity"])
        let passes = 3000
        let seeded = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try await admin("seed-demo", "--tags", "\(passes)", "--json").utf8)) as? [String: Any])
        let token = try #require(seeded["api_token"] as? String)
        // A device registered for each pass.
        try await withDatabase { database in
            try await database.sql.raw(
                """
                INSERT INTO pass_registrations (device_library_identifier, pass_id, push_token, created_at, \
                updated_at, last_seen_at) SELECT 'device-' || id, id, repeat('a', 64), 0, 0, 0 FROM apple_passes
                """
            ).run()
        }
        let root = baseA.replacingOccurrences(of: "/api/v2/in_app_provisioning", with: "")
        let (made, status) = try await curl([
            "-u", "\(token):", "-H", "content-type: application/json",
            "-d", #"{"match":{},"change":{"fields":{"seat":"Moved"}}}"#, "\(root)/api/v2/passes/changes",
        ])
        try #require(status == 202, "\(String(decoding: made, as: UTF8.self))")
        let job = try #require(try JSONSerialization.jsonObject(with: made) as? [String: Any])
        let jobID = try #require(job["id"] as? String)
        #expect(job["total"] as? Int == passes)

        /// The job's items done so far, and whether it finished.
        func progress() async throws -> (done: Int, finished: Bool) {
            try await withDatabase { database in
                let row = try await database.sql.raw(
                    """
                    SELECT changed + skipped + failed AS done, finished_at FROM pass_change_jobs \
                    WHERE id = \(bind: jobID.uppercased())
                    """
                ).first()
                return (
                    try row?.decode(column: "done", as: Int.self) ?? 0,
                    try row?.decode(column: "finished_at", as: Int64?.self) != nil
                )
            }
        }
        // A is killed once the job is under way, with most of it left.
        var killedAt = 0
        while true {
            let (done, finished) = try await progress()
            try #require(!finished, "the job finished before A could be killed")
            if done >= 200 {
                try await a.stop(signal: SIGKILL)
                killedAt = done
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try await eventually(within: .seconds(120)) { try await progress().finished })
        #expect(killedAt < passes)

        let (changes, pushesQueued, seats, outboxDuplicates) = try await withDatabase { database in
            let changes = try await database.sql.raw(
                """
                SELECT pass_id, COUNT(*) AS n FROM pass_events WHERE kind = 'changed' GROUP BY pass_id
                """
            ).all().map { try $0.decode(column: "n", as: Int.self) }
            let pushes = try await database.sql.raw(
                "SELECT pass_id, COUNT(*) AS n FROM pass_events WHERE kind = 'push_queued' GROUP BY pass_id"
            ).all().map { try $0.decode(column: "n", as: Int.self) }
            let contents = try await database.sql.raw("SELECT pass_content FROM apple_passes").all()
                .map { try $0.decode(column: "pass_content", as: Data.self) }
            let duplicates = try await database.sql.raw(
                """
                SELECT COUNT(*) AS n FROM (SELECT pass_id, device_library_identifier FROM push_outbox \
                WHERE kind = 'apns' GROUP BY pass_id, device_library_identifier HAVING COUNT(*) > 1) d
                """
            ).first()?.decode(column: "n", as: Int.self)
            return (changes, pushes, contents, duplicates)
        }
        #expect(changes.count == passes, "every pass changed")
        #expect(changes.allSatisfy { $0 == 1 }, "no pass changed twice")
        #expect(pushesQueued.count == passes && pushesQueued.allSatisfy { $0 == 1 }, "each device pushed once")
        #expect(outboxDuplicates == 0)
        let moved = try seats.filter {
            try PassPackage(archive: $0).pass.fields.value(forKey: "seat") == .text("Moved")
        }
        #expect(moved.count == passes, "every pass holds the change")
        #expect(try await b.stop() == 0)
    }

    @Test("a replica on PostgreSQL without COFFER_PASSPHRASE or COFFER_KEY_FILE refuses to start, naming them")
    func storeKeyRequired() async throws {
        var environment = environment
        environment["COFFER_KEY_FILE"] = nil
        let refused = try await ChildProcess.runDetached(
            coffer, ["serve", "--port", "0", "--data-dir", directory.appending("c").path], environment: environment)
        #expect(refused.status != 0)
        #expect(refused.errorOutput.contains("COFFER_PASSPHRASE"))
        #expect(refused.errorOutput.contains("COFFER_KEY_FILE"))
        #expect(!FileManager.default.fileExists(atPath: directory.appending("c/secrets.key").path))
    }
}

/// The PostgreSQL server tests may use (`.ci/run` starts one on loopback and sets `COFFER_TEST_POSTGRES_URL`).
enum TestPostgreSQL {
    static let url = ProcessInfo.processInfo.environment["COFFER_TEST_POSTGRES_URL"]
}
