import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Secrets
import WalletServer
import WalletServices
import WalletStore

/// A stand-in for an issuer's backend: an HTTP endpoint on loopback that checks each delivery's `Coffer-Signature`
/// (``WebhookSignature/verify(header:body:secret:now:tolerance:)``, in constant time) and records it, answering
/// what was scripted (200 when nothing was).
final class WebhookReceiver: Sendable {
    /// One delivery as received.
    struct Delivery: Sendable {
        var eventID: String
        var type: String
        var body: Data
        /// Whether its signature held under the receiver's secret.
        var signed: Bool

        /// The body as a JSON object.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:] }
    }

    private let state = Locked((deliveries: [Delivery](), answers: [HTTPResponse.Status](), secret: ""))

    /// Every delivery so far, in the order received.
    var deliveries: [Delivery] { state.withLock { $0.deliveries } }

    /// The secret deliveries must be signed with (the endpoint's, answered when it was made).
    func expect(secret: String) { state.withLock { $0.secret = secret } }

    /// Answers the next deliveries with `statuses`, in order, then 200.
    func script(_ statuses: HTTPResponse.Status...) { state.withLock { $0.answers += statuses } }

    /// The router: `POST /hooks`.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/hooks") { [self] request, _ -> Response in
            let body = Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)
            let secret = state.withLock { $0.secret }
            let signed = WebhookSignature.verify(
                header: request.headers[HTTPField.Name(WebhookSignature.header)!] ?? "", body: body, secret: secret)
            let delivery = Delivery(
                eventID: request.headers[HTTPField.Name("Coffer-Event-Id")!] ?? "",
                type: request.headers[HTTPField.Name("Coffer-Event-Type")!] ?? "", body: body, signed: signed)
            let status = state.withLock { state -> HTTPResponse.Status in
                state.deliveries.append(delivery)
                return state.answers.isEmpty ? .ok : state.answers.removeFirst()
            }
            return Response(status: status)
        }
        return router
    }

    /// Runs `body` with the receiver listening on a loopback port; its URL is `http://127.0.0.1:<port>/hooks`.
    static func with(_ body: @Sendable (WebhookReceiver, String) async throws -> Void) async throws {
        let receiver = WebhookReceiver()
        try await Application(router: receiver.router()).test(.live) { client in
            guard let port = client.port else { throw TestFailure("the receiver has no port") }
            try await body(receiver, "http://127.0.0.1:\(port)/hooks")
        }
    }
}
