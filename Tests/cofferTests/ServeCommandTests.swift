import CofferTestSupport
import Foundation
import Testing

@Suite("coffer serve and coffer admin, run as a user runs them: the built binary over real HTTP", .serialized)
struct ServeCommandTests {
    let directory: TemporaryDirectory
    let coffer: URL
    var dataDirectory: String { directory.appending("data").path }

    init() throws {
        directory = try TemporaryDirectory()
        coffer = try ChildProcess.executable(named: "coffer")
    }

    /// Runs `coffer` with `arguments` plus `--data-dir`, and the given environment.
    func admin(_ arguments: String..., environment: [String: String] = [:]) throws -> ChildProcess.Outcome {
        try ChildProcess.run(coffer, ["admin"] + arguments + ["--data-dir", dataDirectory], environment: environment)
    }

    /// Starts `coffer serve` on a free port and returns it with the port it listens on.
    func startServer(environment: [String: String] = [:]) async throws -> (BackgroundProcess, String) {
        let server = try BackgroundProcess(
            coffer, ["serve", "--port", "0", "--data-dir", dataDirectory, "--log-format", "json"],
            environment: environment)
        let port = try await server.waitForOutput(matching: #"listening on 127\.0\.0\.1:(\d+)"#)
        return (server, port)
    }

    /// Runs curl (as the README does); returns the body and the HTTP status.
    func curl(_ arguments: [String]) throws -> (body: Data, status: Int) { try CofferCLI.curl(arguments) }

    /// What `coffer admin seed-demo --json` prints.
    struct DemoSeed: Decodable {
        let clientID: String
        let apiToken: String
        let tagID: String
        let tagIDs: [String]

        enum CodingKeys: String, CodingKey {
            case clientID = "client_id"
            case apiToken = "api_token"
            case tagID = "tag_id"
            case tagIDs = "tag_ids"
        }
    }

    func line(_ outcome: ChildProcess.Outcome) -> String {
        outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Issuer data fetched by curl is verified by openssl, and so is the pass the callback answers.
    @Test(
        "quick start: zero-config serve, 3 admin commands, curl's issuer data and pass verified, clean stop"
    )
    func quickStart() async throws {
        let (server, port) = try await startServer()
        #expect(server.output.contains("created a key file for the secret store"))
        #expect(server.output.contains("generated a development signing identity"))

        let client = try admin("client", "create", "--name", "Acme")
        try #require(client.status == 0, "\(client.errorOutput)")
        let token = try admin("api-user", "create", "--client", line(client))
        try #require(token.status == 0, "\(token.errorOutput)")
        #expect(token.errorOutput.contains("shown only now"))
        let tag = try admin("tag", "create", "--client", line(client), "--reference-id", "TICKET-1")
        try #require(tag.status == 0, "\(tag.errorOutput)")

        let base = "http://127.0.0.1:\(port)/api/v2/in_app_provisioning"
        let issued = try curl([
            "-u", "\(line(token)):", "-H", "content-type: application/json", "-d", #"{"tag_id":"TICKET-1"}"#,
            "\(base)/issuer_data",
        ])
        try #require(issued.status == 200, "\(String(decoding: issued.body, as: UTF8.self))")
        let response = try JSONDecoder().decode([String: String].self, from: issued.body)
        #expect(response["tag_id"] == line(tag))
        let bindingData = try #require(response["issuer_data"].flatMap { Data(base64Encoded: $0) })
        let root = directory.appending("data/development-root.pem")
        let openssl = try OpenSSL.verify(
            signature: try #require(response["signature"].flatMap { Data(base64Encoded: $0) }), content: bindingData,
            root: try Data(contentsOf: root), in: directory)
        #expect(openssl.status == 0, "\(openssl.errorOutput)")
        let binding = try #require(try JSONSerialization.jsonObject(with: bindingData) as? [String: Any])
        #expect(binding["callbackURL"] as? String == "\(base)/callback")
        let session = try #require(binding["sessionIdentifier"] as? String)

        let pkpass = directory.appending("bound.pkpass")
        let bound = try curl([
            "-H", "content-type: application/json", "-d", #"{"issuerBindingData":"0a0b0c","keyHash":"ff00"}"#,
            "-o", pkpass.path, "\(base)/callback?sessionIdentifier=\(session)",
        ])
        #expect(bound.status == 200)
        let boundSignature = try OpenSSL.verify(
            pkpass: try Data(contentsOf: pkpass), root: try Data(contentsOf: root), in: directory)
        #expect(boundSignature.outcome.status == 0, "\(boundSignature.outcome.errorOutput)")
        let verified = try ChildProcess.run(coffer, ["pass", "verify", pkpass.path, "--root", root.path])
        #expect(verified.status == 0, "\(verified.errorOutput)")
        #expect(verified.output.contains("serial TICKET-1"))

        let wrong = try curl([
            "-u", "not-a-token:", "-H", "content-type: application/json", "-d", #"{"tag_id":"TICKET-1"}"#,
            "\(base)/issuer_data",
        ])
        #expect(wrong.status == 401)

        #expect(try await server.stop() == 0)
        let log = server.output
        #expect(!log.contains(line(token)))
        #expect(!log.contains(session))
        let requests = log.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]
        }.filter { $0["message"] == "request" }
        #expect(requests.map { $0["status"] } == ["200", "200", "401"])
    }

    @Test(
        "--issuance-rate-limit/-burst give 429 with Retry-After; --idle-timeout closes a silent connection"
    )
    func abuseControls() async throws {
        let seed = try admin("seed-demo", "--json")
        try #require(seed.status == 0, "\(seed.errorOutput)")
        let seeded = try JSONDecoder().decode(DemoSeed.self, from: seed.standardOutput)
        let server = try BackgroundProcess(
            coffer,
            [
                "serve", "--port", "0", "--data-dir", dataDirectory, "--issuance-rate-limit", "2", "--issuance-burst",
                "1", "--idle-timeout", "1",
            ])
        let port = try await server.waitForOutput(matching: #"listening on 127\.0\.0\.1:(\d+)"#)
        let headers = directory.appending("headers.txt")
        var statuses: [Int] = []
        for _ in 0..<2 {
            let issued = try curl([
                "-D", headers.path, "-u", "\(seeded.apiToken):", "-H", "content-type: application/json",
                "-d", "{\"tag_id\":\"\(seeded.tagID)\"}",
                "http://127.0.0.1:\(port)/api/v2/in_app_provisioning/issuer_data",
            ])
            statuses.append(issued.status)
            if issued.status == 429 {
                let error = try JSONSerialization.jsonObject(with: issued.body) as? [String: [String: Any]]
                #expect(error?["error"]?["code"] as? String == "rate_limited")
            }
        }
        #expect(statuses == [200, 429])
        let retryAfter = try String(contentsOf: headers, encoding: .utf8).split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("retry-after:") }
        // Half a minute (two a minute, one at once), less the time between the requests.
        let seconds = retryAfter.flatMap {
            Int($0.dropFirst("retry-after:".count).trimmingCharacters(in: .whitespaces))
        }
        #expect(seconds.map { (20...30).contains($0) } == true, "\(retryAfter ?? "none")")

        // bash holds a connection open and reads until the server closes it; `timeout` gives up after 10 s.
        let started = ContinuousClock.now
        let idle = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/timeout"),
            ["10", "bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/\(port) && cat <&3"])
        #expect(idle.status == 0, "the server kept a silent connection open for 10 s (status \(idle.status))")
        #expect(started.duration(to: .now) < .seconds(8))
        #expect(try await server.stop() == 0)
    }

    @Test("seed-demo prints client_id, api_token and tag_id; twice makes two clients; a restart reuses it all")
    func seedDemo() async throws {
        let first = try admin("seed-demo", "--json")
        try #require(first.status == 0, "\(first.errorOutput)")
        let seeded = try JSONDecoder().decode(DemoSeed.self, from: first.standardOutput)
        for value in [seeded.clientID, seeded.apiToken, seeded.tagID] { #expect(!value.isEmpty) }
        #expect(seeded.tagIDs == [seeded.tagID])
        let second = try admin("seed-demo")
        #expect(second.status == 0)
        #expect(second.output.contains("client_id: "))
        #expect(!second.output.contains(seeded.clientID))
        let clients = try admin("client", "list", "--json")
        #expect(try JSONSerialization.jsonObject(with: clients.standardOutput) as? [Any] != nil)
        #expect(try (JSONSerialization.jsonObject(with: clients.standardOutput) as? [Any])?.count == 2)

        let key = try Data(contentsOf: directory.appending("data/secrets.key"))
        let (server, port) = try await startServer()
        #expect(!server.output.contains("created a key file"))
        #expect(!server.output.contains("generated a development signing identity"))
        #expect(try Data(contentsOf: directory.appending("data/secrets.key")) == key)
        let issued = try curl([
            "-u", "\(seeded.apiToken):", "-H", "content-type: application/json",
            "-d", "{\"tag_id\":\"\(seeded.tagID)\"}",
            "http://127.0.0.1:\(port)/api/v2/in_app_provisioning/issuer_data",
        ])
        #expect(issued.status == 200)
        #expect(try await server.stop(signal: SIGINT) == 0)
    }

    @Test("admin mistakes get exit statuses and messages, and nothing on standard output")
    func adminMistakes() throws {
        let badIdentifier = try admin("api-user", "create", "--client", "not-a-uuid")
        #expect(badIdentifier.status == 2)
        #expect(badIdentifier.errorOutput.contains("not a client identifier"))
        let unknownClient = try admin("api-user", "create", "--client", UUID().uuidString)
        #expect(unknownClient.status == 1)
        #expect(unknownClient.output.isEmpty)
        let client = line(try admin("client", "create", "--name", "Acme"))
        let noIdentifier = try admin("tag", "create", "--client", client)
        #expect(noIdentifier.status == 2)
        #expect(noIdentifier.errorOutput.contains("reference_id"))
        let apiUser = try admin("api-user", "create", "--client", client, "--json")
        let created = try #require(try JSONSerialization.jsonObject(with: apiUser.standardOutput) as? [String: Any])
        #expect((created["token"] as? String)?.count == 43)
        let id = try #require((created["api_user"] as? [String: Any])?["id"] as? String)
        #expect(try admin("api-user", "revoke", id).status == 0)
        let again = try admin("api-user", "revoke", id)
        #expect(again.status == 1)
        #expect(again.errorOutput.contains("does not exist"))
        let list = try admin("api-user", "list", "--client", client)
        #expect(list.output.contains(id))
        #expect(!list.output.contains("token"))
    }

    @Test("a template without an nfc dictionary makes a pass, warning that its binding then protects nothing")
    func templateWithoutNFC() throws {
        let eventTicket = SourceTree.appending("Examples/Passes/EventTicket.pass").path
        let seed = try admin("seed-demo")
        try #require(seed.status == 0, "\(seed.errorOutput)")
        #expect(!seed.errorOutput.contains("warning"), "the demo ticket is an NFC pass")
        let client = line(try admin("client", "create", "--name", "Acme"))

        let tag = try admin("tag", "create", "--client", client, "--reference-id", "T-1", "--template", eventTicket)
        #expect(tag.status == 0, "\(tag.errorOutput)")
        #expect(tag.errorOutput.contains("warning[binding.nfc] nfc"))

        let bare = line(try admin("tag", "create", "--client", client, "--reference-id", "T-2", "--no-pass"))
        let pass = try admin("pass", "create", "--tag", bare, "--template", eventTicket)
        #expect(pass.status == 0, "\(pass.errorOutput)")
        #expect(pass.errorOutput.contains("warning[binding.nfc] nfc"))
    }

    @Test("a passphrase-protected data directory needs it: without, the server refuses and creates no key file")
    func passphraseProtected() async throws {
        let made = try admin("client", "create", "--name", "Acme", environment: ["COFFER_PASSPHRASE": "server pass"])
        try #require(made.status == 0, "\(made.errorOutput)")
        let refused = try ChildProcess.run(coffer, ["serve", "--port", "0", "--data-dir", dataDirectory])
        #expect(refused.status != 0)
        #expect(refused.errorOutput.contains("COFFER_PASSPHRASE"))
        #expect(!FileManager.default.fileExists(atPath: directory.appending("data/secrets.key").path))
        let wrong = try admin("client", "list", environment: ["COFFER_PASSPHRASE": "wrong pass"])
        #expect(wrong.status == 3)
        let (server, _) = try await startServer(environment: ["COFFER_PASSPHRASE": "server pass"])
        #expect(try await server.stop() == 0)
    }

    @Test("a second server on a port in use exits 4 and says so")
    func portInUse() async throws {
        let (server, port) = try await startServer()
        let second = try ChildProcess.run(
            coffer, ["serve", "--port", port, "--data-dir", directory.appending("second").path])
        #expect(second.status == 4)
        #expect(second.errorOutput.contains("the address is in use"))
        #expect(try await server.stop() == 0)
    }
}
