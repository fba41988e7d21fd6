import CofferTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Secrets
import Testing
import WalletDocuments
import WalletOrders
import WalletPasses
import WalletServer
import WalletServerTesting
import WalletServices
import WalletStore
import X509

/// Plays Wallet's orders client against a running server (the whole application as `coffer serve` builds it, on a
/// loopback port, with its dispatcher), an APNs stand-in that checks the order type's client certificate, and a
/// webhook receiver that checks every signature.
@Suite("Orders end to end, as Wallet would: create, fetch, register, list, change, push, unregister", .serialized)
struct OrderEndToEndTests {
    static let devices = ["order0device0a", "order0device0b"]
    static let pushTokens = [String(repeating: "7a", count: 32), String(repeating: "7b", count: 32)]

    /// An order as a shop's backend writes it: what Wallet requires, a shipment and a payment.
    static let orderJSON = #"""
        {"orderIdentifier":"SHOP-1042","orderNumber":"1042","orderManagementURL":"https://shop.example.com/o/1042",
         "merchant":{"displayName":"Example Shoes","merchantIdentifier":"merchant.com.example","url":"https://shop.example.com"},
         "lineItems":[{"title":"Canvas sneaker","quantity":1,"price":{"amount":"89.00","currency":"EUR"}}],
         "fulfillments":[{"fulfillmentType":"shipping","fulfillmentIdentifier":"parcel-1","status":"processing"}],
         "payment":{"total":{"amount":"89.00","currency":"EUR"},"status":"paid"}}
        """#

    @Test("an order's whole life, with pushes over HTTP/2 and TLS client authentication", arguments: Engine.available)
    func lifeOfAnOrder(_ engine: Engine) async throws {
        let directory = try TemporaryDirectory()
        var configuration = try await WalletDeviceEndToEndTests.configuration(engine, in: directory)
        configuration.allowsLoopbackWebhooks = true
        let storage = try await WalletServerStorage.open(configuration: configuration)
        let administration = WalletAdministration(storage: storage)
        let seed: WalletAdministration.DemoSeed
        do {
            seed = try await administration.seedDemo(withOrderType: true)
            try await storage.shutdown()
        } catch {
            try? await storage.shutdown()
            throw error
        }
        let rootPEM = try Data(contentsOf: administration.developmentOrderRootURL)
        let root = try SigningIdentity.certificate(from: rootPEM, role: "the development order root")
        try await APNsStandIn.with(clientCertificateAuthority: root) { standIn in
            configuration.apns = APNsConfiguration(
                gateway: .custom(standIn.url), authentication: .certificate, additionalTrustRoots: [standIn.trustRoot])
            let application = try await WalletServerApplication.buildApplication(configuration: configuration)
            try await WebhookReceiver.with { receiver, receiverURL in
                try await application.test(.live) { client in
                    try await Self.play(
                        client: client, seed: seed, standIn: standIn, receiver: receiver, receiverURL: receiverURL,
                        root: root, rootPEM: rootPEM, directory: directory)
                }
            }
        }
    }

    static func play(
        client: any TestClientProtocol, seed: WalletAdministration.DemoSeed, standIn: APNsStandIn,
        receiver: WebhookReceiver, receiverURL: String, root: Certificate, rootPEM: Data, directory: TemporaryDirectory
    ) async throws {
        let basic = ProvisioningAPI.headers(token: seed.apiToken)
        // 0. The shop's backend listens for order events.
        let endpoint = try await Answer.send(
            client, .post, "/api/v2/webhook_endpoints", headers: basic,
            body: #"{"url":"\#(receiverURL)","event_types":["order.added","order.updated","order.removed"]}"#)
        #expect(endpoint.status == .created, "\(endpoint.text)")
        receiver.expect(secret: try #require(endpoint.object["secret"] as? String))

        // 1. Create the order, idempotently; the answer carries what Apple Pay hands Wallet.
        var idempotent = basic
        idempotent[HTTPField.Name("Idempotency-Key")!] = "order-1042"
        let body = #"{"order":\#(orderJSON)}"#
        let created = try await Answer.send(client, .post, "/api/v2/orders", headers: idempotent, body: body)
        #expect(created.status == .created, "\(created.text)")
        let again = try await Answer.send(client, .post, "/api/v2/orders", headers: idempotent, body: body)
        #expect(again.status == .created)
        #expect(again.headers[HTTPField.Name("Idempotency-Replayed")!] == "true")
        #expect(again.text == created.text)
        let details = try #require(created.object["apple_pay_order_details"] as? [String: String])
        let orderType = try #require(details["orderTypeIdentifier"])
        let orderID = try #require(details["orderIdentifier"])
        let token = try #require(details["authenticationToken"])
        #expect(orderType == WalletAdministration.developmentOrderTypeIdentifier)
        #expect(orderID == "SHOP-1042")
        #expect(details["webServiceURL"] == "https://wallet.example.com/orders")
        #expect(token.count >= 16)

        let auth: HTTPFields = [.authorization: "AppleOrder \(token)", .contentType: "application/json"]
        let orderPath = "/orders/v1/orders/\(orderType)/\(orderID)"
        func registration(_ device: String) -> String {
            "/orders/v1/devices/\(device)/registrations/\(orderType)/\(orderID)"
        }
        let list = "/orders/v1/devices/\(devices[0])/registrations/\(orderType)"

        // 2. Wallet fetches it (Apple Pay's orderDetails): a signed .order that verifies against the order root.
        let (first, lastModified) = try await client.execute(uri: orderPath, method: .get, headers: auth) { response in
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/vnd.apple.finance.order")
            return (Data(response.body.readableBytesView), try #require(response.headers[.lastModified]))
        }
        let verifier = DocumentVerifier(trustRoots: [root])
        let fetched = try await verifier.verify(order: first).order
        #expect(fetched.authenticationToken == token)
        #expect(fetched.webServiceURL == "https://wallet.example.com/orders")
        #expect(fetched.lint().errors.isEmpty, "\(fetched.lint().errors)")
        let openssl = try OpenSSL.verify(pkpass: first, root: rootPEM, in: directory)
        #expect(openssl.outcome.status == 0, "\(openssl.outcome.errorOutput)")

        // 3. A wrong token, or none, is 401 on every authenticated route.
        for var headers: HTTPFields in [[.authorization: "AppleOrder wrong-token-0123456789"], [:]] {
            try await client.execute(uri: orderPath, method: .get, headers: headers) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(
                uri: registration(devices[0]), method: .post,
                headers: {
                    headers[.contentType] = "application/json"; return headers
                }(),
                body: ByteBuffer(string: #"{"pushToken":"\#(pushTokens[0])"}"#)
            ) { #expect($0.status == .unauthorized) }
        }
        let wrongScheme = try await client.execute(
            uri: orderPath, method: .get, headers: [.authorization: "ApplePass \(token)"]
        ) { $0.status }
        #expect(wrongScheme == .unauthorized, "a pass's scheme does not open an order")

        // 4. Two devices register (201), one again (200).
        for (device, pushToken) in zip(devices, pushTokens) {
            try await client.execute(
                uri: registration(device), method: .post, headers: auth,
                body: ByteBuffer(string: #"{"pushToken":"\#(pushToken)"}"#)
            ) { #expect($0.status == .created) }
        }
        try await client.execute(
            uri: registration(devices[0]), method: .post, headers: auth,
            body: ByteBuffer(string: #"{"pushToken":"\#(pushTokens[0])"}"#)
        ) { #expect($0.status == .ok) }

        // 5. List: 200 with the order, then 204 from the lastModified it gave.
        let initial = try await client.execute(uri: list, method: .get) { response in
            #expect(response.status == .ok)
            let body = try JSONDecoder().decode(OrderIdentifiers.self, from: Data(response.body.readableBytesView))
            #expect(body.orderIdentifiers == [orderID])
            return body.lastModified
        }
        try await client.execute(uri: "\(list)?ordersModifiedSince=\(initial)", method: .get) {
            #expect($0.status == .noContent)
        }

        // 6. Unchanged: 304 with If-Modified-Since.
        var conditional = auth
        conditional[.ifModifiedSince] = lastModified
        try await client.execute(uri: orderPath, method: .get, headers: conditional) {
            #expect($0.status == .notModified)
        }

        // 7. The parcel ships: one push per registered device, the order type's topic, an empty payload.
        let change = try await Answer.send(
            client, .patch, "/api/v2/orders/\(orderType)/\(orderID)", headers: basic,
            body:
                #"{"fulfillments":[{"fulfillmentIdentifier":"parcel-1","status":"onTheWay","carrier":"Example Parcel","trackingNumber":"EP1"}]}"#
        )
        #expect(change.status == .ok, "\(change.text)")
        let pushes = try await waitForPushes(2, at: standIn)
        try await Task.sleep(for: .milliseconds(500))
        #expect(standIn.received.count == 2, "exactly one push per device")
        #expect(Set(pushes.map(\.path)) == Set(pushTokens.map { "/3/device/\($0)" }))
        for push in pushes {
            #expect(push.headers["apns-topic"] == orderType)
            #expect(push.body == "{}")
            #expect(push.status == 200)
            #expect(push.clientCertificateSubject?.contains(orderType) == true)
        }

        // 8. The device lists the change and fetches it: 200 with the new content, past its old If-Modified-Since.
        try await client.execute(uri: "\(list)?ordersModifiedSince=\(initial)", method: .get) { response in
            #expect(response.status == .ok)
            let body = try JSONDecoder().decode(OrderIdentifiers.self, from: Data(response.body.readableBytesView))
            #expect(body.orderIdentifiers == [orderID])
            #expect(body.lastModified != initial)
        }
        let changed = try await client.execute(uri: orderPath, method: .get, headers: conditional) { response in
            #expect(response.status == .ok)
            return Data(response.body.readableBytesView)
        }
        let updated = try await verifier.verify(order: changed).order
        guard case .shipping(let parcel)? = updated.fulfillments?.first else {
            Issue.record("the shipment is gone")
            return
        }
        #expect(parcel.status == .onTheWay)
        #expect(parcel.carrier == "Example Parcel")
        #expect(try #require(updated.updatedAt) > (try #require(fetched.updatedAt)))

        // 9. The backend heard order.added and order.updated, signed.
        let hooks = try await waitForDeliveries(of: ["order.added", "order.updated"], at: receiver)
        #expect(hooks.allSatisfy { $0.signed })
        let hook = try #require(hooks.first { $0.type == "order.updated" })
        let data = try #require(hook.json["data"] as? [String: Any])
        let order = try #require(data["order"] as? [String: String])
        #expect(order["order_identifier"] == orderID)

        // 10. Unregister, and the device hears of the order no more; logs are taken.
        try await client.execute(uri: registration(devices[0]), method: .delete, headers: auth) {
            #expect($0.status == .ok)
        }
        try await client.execute(uri: list, method: .get) { #expect($0.status == .noContent) }
        try await client.execute(
            uri: "/orders/v1/log", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(string: #"{"logs":["order fetch failed"]}"#)
        ) { #expect($0.status == .ok) }
    }

    struct OrderIdentifiers: Decodable {
        let orderIdentifiers: [String]
        let lastModified: String
    }

    /// The first `count` pushes the stand-in received, waiting up to 20 seconds for them.
    static func waitForPushes(_ count: Int, at standIn: APNsStandIn) async throws -> [APNsStandIn.Received] {
        for _ in 0..<200 {
            if standIn.received.count >= count { return Array(standIn.received.prefix(count)) }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("\(standIn.received.count) of \(count) pushes reached the stand-in")
        throw CancellationError()
    }

    /// The deliveries of `types`, waiting up to 20 seconds for one of each.
    static func waitForDeliveries(of types: Set<String>, at receiver: WebhookReceiver) async throws
        -> [WebhookReceiver.Delivery]
    {
        for _ in 0..<200 {
            let deliveries = receiver.deliveries.filter { types.contains($0.type) }
            if Set(deliveries.map(\.type)) == types { return deliveries }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the receiver got \(receiver.deliveries.map(\.type)), not \(types.sorted())")
        throw CancellationError()
    }
}
