// A backend's webhook endpoint for Coffer: checks each delivery's Coffer-Signature with the endpoint's secret (in
// constant time, refusing timestamps more than 5 minutes off), answers 401 to anything unsigned, de-duplicates by
// Coffer-Event-Id (a delivery can arrive again when an answer was lost), and prints each event once.
//
// Usage: COFFER_WEBHOOK_SECRET=whsec_… swift run WebhookReceiverExample [port]
//        (port 0 or none: a free one; prints "listening on 127.0.0.1:<port>")
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import WalletServer
import WalletServices
import WalletStore

@main
struct WebhookReceiverExample {
    static func main() async throws {
        guard let secret = ProcessInfo.processInfo.environment["COFFER_WEBHOOK_SECRET"], secret.hasPrefix("whsec_")
        else {
            FileHandle.standardError.write(Data("set COFFER_WEBHOOK_SECRET to the endpoint's whsec_… secret\n".utf8))
            exit(2)
        }
        let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 0
        let seen = SeenEvents()
        let router = Router()
        router.post("/coffer") { request, _ -> Response in
            let body = Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)
            let signature = request.headers[HTTPField.Name(WebhookSignature.header)!] ?? ""
            guard WebhookSignature.verify(header: signature, body: body, secret: secret) else {
                return Response(status: .unauthorized)
            }
            let eventID = request.headers[HTTPField.Name("Coffer-Event-Id")!] ?? ""
            if await seen.insert(eventID) { FileHandle.standardOutput.write(body + Data("\n".utf8)) }
            return Response(status: .noContent)
        }
        var logger = Logger(label: "webhook-receiver")
        logger.logLevel = .warning
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                FileHandle.standardOutput.write(
                    Data("listening on 127.0.0.1:\(channel.localAddress?.port ?? 0)\n".utf8))
            }, logger: logger)
        try await application.runService()
    }
}

/// The newest event ids seen, at most 10,000: enough to recognize a retry, which comes within a day.
actor SeenEvents {
    private var ids: Set<String> = []
    private var order: [String] = []

    /// Whether `id` is new; remembers it.
    func insert(_ id: String) -> Bool {
        guard ids.insert(id).inserted else { return false }
        order.append(id)
        if order.count > 10_000 { ids.remove(order.removeFirst()) }
        return true
    }
}
