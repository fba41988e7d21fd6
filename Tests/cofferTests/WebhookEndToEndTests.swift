import CofferTestSupport
import Foundation
import Testing
import WalletServer
import WalletServices
import WalletStore

/// The built `coffer serve` posts a signed webhook to the built example receiver (Examples/WebhookReceiver), which
/// checks the signature before it prints the event.
@Suite("A change made through the API reaches the example receiver as a signed webhook", .serialized)
struct WebhookEndToEndTests {
    let world: AdminWorld

    init() throws { world = try AdminWorld() }

    func curl(_ arguments: [String]) throws -> (body: Data, status: Int) { try CofferCLI.curl(arguments) }

    /// A port nothing listens on now (the receiver takes it a moment later).
    static func freePort() throws -> Int {
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
        return try #require(Int(outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("pass.updated arrives signed; the receiver refuses a forged delivery with 401")
    func signedDelivery() async throws {
        let dataDirectory = world.dataDirectory
        let (_, tag, token) = try world.seed()

        let server = try BackgroundProcess(
            world.coffer,
            ["serve", "--port", "0", "--data-dir", dataDirectory, "--log-format", "json", "--allow-loopback-webhooks"])
        let port = try await server.waitForOutput(matching: #"listening on 127\.0\.0\.1:(\d+)"#)
        let base = "http://127.0.0.1:\(port)"

        let receiverPort = try Self.freePort()
        let created = try curl([
            "-u", "\(token):", "-H", "Content-Type: application/json", "-d",
            #"{"url":"http://127.0.0.1:\#(receiverPort)/coffer","event_types":["pass.updated"]}"#,
            "\(base)/api/v2/webhook_endpoints",
        ])
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let endpoint = try #require(try JSONSerialization.jsonObject(with: created.body) as? [String: Any])
        let secret = try #require(endpoint["secret"] as? String)

        let receiver = try BackgroundProcess(
            try ChildProcess.executable(named: "WebhookReceiverExample"), [String(receiverPort)],
            environment: ["COFFER_WEBHOOK_SECRET": secret])
        _ = try await receiver.waitForOutput(matching: #"listening on 127\.0\.0\.1:(\d+)"#)

        let changed = try curl([
            "-u", "\(token):", "-X", "PATCH", "-H", "Content-Type: application/json", "-d",
            #"{"fields":{"seat":"14C"}}"#, "\(base)/api/v2/passes/\(tag)",
        ])
        #expect(changed.status == 200)
        let type = try await receiver.waitForOutput(matching: #""type":"(pass\.updated)""#, timeout: .seconds(60))
        #expect(type == "pass.updated")
        #expect(receiver.output.contains(#""serial_number":""#))

        let body = #"{"id":"evt_forged","type":"pass.removed"}"#
        let forged = try curl([
            "-H", "Coffer-Signature: t=\(Int(Date().timeIntervalSince1970)),v1=\(String(repeating: "0", count: 64))",
            "-H", "Coffer-Event-Id: evt_forged", "-d", body, "http://127.0.0.1:\(receiverPort)/coffer",
        ])
        #expect(forged.status == 401)
        let signed = WebhookSignature.header(for: Data(body.utf8), secret: secret, timestamp: Date())
        let genuine = try curl([
            "-H", "Coffer-Signature: \(signed)", "-H", "Coffer-Event-Id: evt_forged", "-d", body,
            "http://127.0.0.1:\(receiverPort)/coffer",
        ])
        #expect(genuine.status == 204)
        #expect(!server.output.contains(secret), "the server never logs an endpoint's secret")
        _ = try await receiver.stop()
        _ = try await server.stop()
    }
}
