import CofferTestSupport
import Foundation
import SQLKit
import Synchronization
import Testing
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("coffer serve keeps every issuance it acknowledged, even when it is killed under load", .serialized)
struct IssuanceDurabilityTests {
    /// How many tags (each with its pass) the load issues for, once each.
    static let tagCount = 600
    /// Concurrent clients.
    static let clients = 16

    @Test(
        "kill -9 under load: after a restart, all issuer data clients got has a session the callback can use"
    )
    func killedUnderLoad() async throws {
        let directory = try TemporaryDirectory()
        let dataDirectory = directory.appending("data")
        let (token, tags) = try await Self.prepare(dataDirectory: dataDirectory)

        let coffer = try ChildProcess.executable(named: "coffer")
        let server = try BackgroundProcess(
            coffer,
            [
                "serve", "--port", "0", "--data-dir", dataDirectory.path, "--log-format", "json",
                "--issuance-rate-limit", "0",
            ])
        let port = try await server.waitForOutput(matching: #"listening on 127\.0\.0\.1:(\d+)"#)
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/api/v2/in_app_provisioning/issuer_data"))

        // Each client takes the next tag and asks for its issuer data, until the server dies.
        let next = Counter()
        let acknowledged = SessionLog()
        let session = URLSession(configuration: .ephemeral)
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<Self.clients {
                    group.addTask {
                        while let index = next.take(below: tags.count) {
                            guard
                                let identifier = try? await Self.issue(
                                    tag: tags[index], token: token, url: url, session: session)
                            else { return }
                            acknowledged.append(identifier)
                        }
                    }
                }
            }
        }
        // Kill it once a third of the tags were acknowledged, with requests still in flight.
        let deadline = ContinuousClock.now + .seconds(120)
        while acknowledged.count < tags.count / 3, ContinuousClock.now < deadline, server.isRunning {
            try await Task.sleep(for: .milliseconds(5))
        }
        let status = try await server.stop(signal: SIGKILL)
        await load.value
        #expect(status == SIGKILL, "the server was killed, not stopped")
        let received = acknowledged.all
        try #require(received.count >= tags.count / 3, "the load reached the server: \(server.output.suffix(2000))")
        #expect(received.count < tags.count, "the server was killed before the load finished")

        // Every session a client was given is in the database, open.
        let storage = try await WalletServerStorage.open(
            configuration: WalletServerConfiguration(dataDirectory: dataDirectory, createsDevelopmentIdentity: false))
        var missing = 0
        for identifier in received {
            let rows = try await storage.database.sql.select().column("used_at").from("provisioning_sessions")
                .where("id_hash", .equal, SecretToken.hash(identifier)).all()
            if rows.count != 1 { missing += 1 }
        }
        try await storage.shutdown()
        #expect(missing == 0, "\(missing) of \(received.count) acknowledged issuances were lost")

        // And the restarted server accepts their callbacks.
        let restarted = try BackgroundProcess(
            coffer,
            ["serve", "--port", "0", "--data-dir", dataDirectory.path, "--log-format", "json"])
        let newPort = try await restarted.waitForOutput(matching: #"listening on 127\.0\.0\.1:(\d+)"#)
        for identifier in received.prefix(3) {
            var request = URLRequest(
                url: try #require(
                    URL(
                        string:
                            "http://127.0.0.1:\(newPort)/api/v2/in_app_provisioning/callback?sessionIdentifier=\(identifier)"
                    )))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"issuerBindingData":"0a0b0c","keyHash":"c0ffee"}"#.utf8)
            let (_, response) = try await session.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
        }
        _ = try await restarted.stop()
    }

    /// A data directory with the development pass type, one client and its API token, and `tagCount` tags, each
    /// with its pass; returns the token and the tags' reference ids.
    static func prepare(dataDirectory: URL) async throws -> (token: String, tags: [String]) {
        let storage = try await WalletServerStorage.open(
            configuration: WalletServerConfiguration(dataDirectory: dataDirectory))
        let administration = WalletAdministration(storage: storage)
        let passType = try await administration.developmentPassType().passType
        let client = try await administration.createClient(name: "Durability")
        let (_, token) = try await administration.createAPIUser(clientID: client.id, name: "load")
        var tags: [String] = []
        for index in 0..<tagCount {
            let tag = try await administration.createTag(clientID: client.id, referenceID: "T-\(index)")
            _ = try await administration.createPass(tagID: tag.id, passTypeID: passType.id)
            tags.append("T-\(index)")
        }
        try await storage.shutdown()
        return (token, tags)
    }

    /// Asks for a tag's issuer data; returns the session identifier it carries, or `nil` if no answer came back
    /// (the server died first).
    static func issue(tag: String, token: String, url: URL, session: URLSession) async throws -> String? {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(
            HTTPBasic.authorization(user: token), forHTTPHeaderField: "Authorization")
        request.httpBody = try JSONEncoder().encode(["tag_id": tag])
        let (body, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { return nil }
        let answer = try JSONDecoder().decode([String: String].self, from: body)
        let issuerData = try #require(Data(base64Encoded: answer["issuer_data"] ?? ""))
        return try JSONDecoder().decode(IssuerBindingData.self, from: issuerData).sessionIdentifier
    }
}

/// Hands out indexes to concurrent clients, each once.
private final class Counter: Sendable {
    private let value = Mutex(0)

    func take(below limit: Int) -> Int? {
        value.withLock { value in
            guard value < limit else { return nil }
            defer { value += 1 }
            return value
        }
    }
}

/// The session identifiers clients received, in the order they arrived.
private final class SessionLog: Sendable {
    private let identifiers = Mutex([String]())

    func append(_ identifier: String) { identifiers.withLock { $0.append(identifier) } }
    var count: Int { identifiers.withLock { $0.count } }
    var all: [String] { identifiers.withLock { $0 } }
}
