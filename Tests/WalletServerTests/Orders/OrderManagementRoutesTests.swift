import CofferTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import WalletOrders
import WalletPasses

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

/// The management API's orders and the web service's bounds, through the router over a world with a web service.
@Suite("The orders API: validated, scoped to the client, changed part by part, bounded")
struct OrderManagementRoutesTests {
    static let orderType = ProvisioningWorld.orderTypeIdentifier

    /// An order body with `identifier`, and `extra` keys of order.json.
    static func body(_ identifier: String = "SHOP-1", extra: String = "", files: String = "") -> String {
        #"""
        {"order":{"orderIdentifier":"\#(identifier)","orderManagementURL":"https://shop.example.com/o/1",
         "merchant":{"displayName":"Acme Shop","merchantIdentifier":"merchant.com.acme","url":"https://shop.example.com"}\#(extra)}\#(files)}
        """#
    }

    /// Runs `body` with the router over a world with a web service and a second client's token.
    func withAPI(
        _ engine: Engine,
        _ body: @Sendable (any TestClientProtocol, ProvisioningWorld, String, String) async throws -> Void
    ) async throws {
        try await ProvisioningWorld.with(engine, webService: true, orders: true) { world in
            let repository = world.repository
            let token = try await repository.createAPIUser(clientID: world.apiUser.clientID, name: "shop").token
            let other = try await repository.createClient(name: "Other")
            let otherToken = try await repository.createAPIUser(clientID: other.id, name: "other").token
            let router = WalletServerApplication.makeRouter(
                repository: repository, service: world.service, logger: Logger(label: "test"))
            try await Application(router: router).test(.router) { client in
                try await body(client, world, token, otherToken)
            }
        }
    }

    @Test(
        "an order that would not lint is 400 invalid_order with the findings, and nothing is stored",
        arguments: Engine.available)
    func invalidOrder(_ engine: Engine) async throws {
        try await withAPI(engine) { client, _, token, _ in
            let missing = try await ManagementWorld.send(
                client, .post, "/api/v2/orders", token: token, body: #"{"order":{"orderIdentifier":"X"}}"#)
            #expect(missing.status == .badRequest)
            #expect(missing.errorCode == "invalid_order")
            #expect(missing.text.contains("merchant"))
            let logo = try await ManagementWorld.send(
                client, .post, "/api/v2/orders", token: token,
                body: Self.body(extra: #","lineItems":[{"title":"Shoe","quantity":1,"image":"shoe.png"}]"#))
            #expect(logo.errorCode == "invalid_order")
            #expect(logo.text.contains("shoe.png"))
            let script = try await ManagementWorld.send(
                client, .post, "/api/v2/orders", token: token,
                body: Self.body(files: #","files":{"run.sh":"ZWNobw=="}"#))
            #expect(script.status == .badRequest)
            #expect(script.text.contains("is not a file an order holds"))
            // The web service could never serve it: the rule is the one its paths keep.
            let accented = try await ManagementWorld.send(
                client, .post, "/api/v2/orders", token: token, body: Self.body("commande-été"))
            #expect(accented.status == .badRequest)
            #expect(accented.errorCode == "invalid_order")
            #expect(accented.text.contains("orderIdentifier"))
            let fetched = try await client.execute(
                uri: "/orders/v1/orders/\(Self.orderType)/commande-%C3%A9t%C3%A9", method: .get)
            #expect(fetched.status == .badRequest)
            let state = try await ManagementWorld.send(
                client, .get, "/api/v2/orders/\(Self.orderType)/SHOP-1", token: token)
            #expect(state.status == .notFound)
        }
    }

    @Test("another client's order is 404, and its identifier is taken (409)", arguments: Engine.available)
    func scopedToClient(_ engine: Engine) async throws {
        try await withAPI(engine) { client, world, token, otherToken in
            let created = try await ManagementWorld.send(
                client, .post, "/api/v2/orders", token: token, body: Self.body())
            #expect(created.status == .created, "\(created.text)")
            #expect(
                try await ManagementWorld.send(
                    client, .get, "/api/v2/orders/\(Self.orderType)/SHOP-1", token: otherToken
                ).status == .notFound)
            #expect(
                try await ManagementWorld.send(
                    client, .post, "/api/v2/orders", token: otherToken, body: Self.body()
                ).status == .notFound, "no order type is shared with the other client")
            let orderType = try #require(try await world.repository.passTypes().first { $0.kind == .order })
            let otherClient = try #require(try await world.repository.clients().first { $0.name == "Other" })
            try await world.repository.grantPassType(passTypeID: orderType.id, clientID: otherClient.id, now: Date())
            let taken = try await ManagementWorld.send(
                client, .post, "/api/v2/orders", token: otherToken, body: Self.body())
            #expect(taken.status == .conflict)
        }
    }

    @Test(
        "a client the order type was taken from reads its orders, but changing or signing one is 403",
        arguments: Engine.available)
    func unshared(_ engine: Engine) async throws {
        try await withAPI(engine) { client, world, token, _ in
            let created = try await ManagementWorld.send(
                client, .post, "/api/v2/orders", token: token, body: Self.body())
            #expect(created.status == .created, "\(created.text)")
            let orderType = try #require(try await world.repository.passTypes().first { $0.kind == .order })
            #expect(
                try await world.repository.revokePassType(passTypeID: orderType.id, clientID: world.apiUser.clientID))

            let path = "/api/v2/orders/\(Self.orderType)/SHOP-1"
            #expect(try await ManagementWorld.send(client, .get, path, token: token).status == .ok)
            let changed = try await ManagementWorld.send(
                client, .patch, path, token: token, body: #"{"status":"completed"}"#)
            #expect(changed.status == .forbidden)
            let replaced = try await ManagementWorld.send(client, .patch, path, token: token, body: Self.body())
            #expect(replaced.status == .forbidden)
            #expect(try await ManagementWorld.send(client, .get, path + "/order", token: token).status == .forbidden)
            let state = try await ManagementWorld.send(client, .get, path, token: token)
            #expect(state.object["order"].map { ($0 as? [String: Any])?["status"] as? String } == "open")
        }
    }

    @Test(
        "a change merges a fulfilment by its identifier; one that would not lint changes nothing",
        arguments: Engine.available)
    func changes(_ engine: Engine) async throws {
        try await withAPI(engine) { client, _, token, _ in
            let extra =
                #","fulfillments":[{"fulfillmentType":"shipping","fulfillmentIdentifier":"p1","status":"processing"}]"#
            let created = try await ManagementWorld.send(
                client, .post, "/api/v2/orders", token: token, body: Self.body(extra: extra))
            #expect(created.status == .created, "\(created.text)")
            let path = "/api/v2/orders/\(Self.orderType)/SHOP-1"
            let shipped = try await ManagementWorld.send(
                client, .patch, path, token: token,
                body:
                    #"{"status":"completed","fulfillments":[{"fulfillmentIdentifier":"p1","status":"delivered","carrier":"Post"}]}"#
            )
            #expect(shipped.status == .ok, "\(shipped.text)")
            let order = try #require(shipped.object["order"] as? [String: Any])
            #expect(order["status"] as? String == "completed")
            let fulfillments = try #require(order["fulfillments"] as? [[String: Any]])
            #expect(fulfillments.count == 1)
            #expect(fulfillments[0]["status"] as? String == "delivered")
            #expect(fulfillments[0]["fulfillmentType"] as? String == "shipping", "the keys not named stay")
            let tag = shipped.object["update_tag"] as? String

            let refused = try await ManagementWorld.send(
                client, .patch, path, token: token,
                body: #"{"fulfillments":[{"fulfillmentIdentifier":"p1","status":"lost"}]}"#)
            #expect(refused.errorCode == "invalid_order")
            let after = try await ManagementWorld.send(client, .get, path, token: token)
            #expect(after.object["update_tag"] as? String == tag, "nothing changed")

            let items = Array(repeating: #"{"title":"Sock","quantity":1}"#, count: OrderChange.maximumEntries + 1)
            let replaced = try await ManagementWorld.send(
                client, .patch, path, token: token,
                body:
                    #"{"order":{"schemaVersion":1,"orderType":"ecommerce","status":"open","updatedAt":"2099-01-01T00:00:00Z","orderManagementURL":"https://shop.example.com/o/1","merchant":{"displayName":"Acme Shop","merchantIdentifier":"merchant.com.acme","url":"https://shop.example.com"},"lineItems":[\#(items.joined(separator: ","))]}}"#
            )
            #expect(replaced.status == .badRequest, "a whole new order.json has the same bounds as a new order")
            #expect(replaced.errorCode == "bad_request", "\(replaced.text)")
            let foreign = try await ManagementWorld.send(
                client, .patch, path, token: token,
                body:
                    #"{"order":{"schemaVersion":1,"orderType":"ecommerce","status":"open","updatedAt":"2099-01-01T00:00:00Z","orderManagementURL":"https://shop.example.com/o/1","merchant":{"displayName":"Acme Shop","merchantIdentifier":"merchant.com.acme","url":"https://shop.example.com"},"webServiceURL":"https://evil.example","authenticationToken":"0123456789abcdef0123"}}"#
            )
            let stored = try #require(foreign.object["order"] as? [String: Any], "\(foreign.text)")
            #expect(stored["webServiceURL"] == nil && stored["authenticationToken"] == nil, "only signing writes them")

            var files: [String] = []
            for index in 0..<OrderPackage.maximumFiles { files.append(#""x\#(index).lproj/order.strings":"""#) }
            let tooMany = try await ManagementWorld.send(
                client, .patch, path, token: token, body: #"{"files":{\#(files.prefix(32).joined(separator: ","))}}"#)
            #expect(tooMany.status == .ok, "\(tooMany.text)")
            let beyond = try await ManagementWorld.send(
                client, .patch, path, token: token, body: #"{"files":{\#(files.suffix(32).joined(separator: ","))}}"#)
            #expect(beyond.status == .badRequest, "an order holds at most \(OrderPackage.maximumFiles) files")
        }
    }

    @Test(
        "a token holder gets 304s without end, but signed answers only within the order's budget",
        arguments: Engine.available)
    func signingBudget(_ engine: Engine) async throws {
        try await withAPI(engine) { client, _, token, _ in
            let created = try await ManagementWorld.send(
                client, .post, "/api/v2/orders", token: token, body: Self.body())
            let details = try #require(created.object["apple_pay_order_details"] as? [String: String])
            let auth: HTTPFields = [.authorization: "AppleOrder \(try #require(details["authenticationToken"]))"]
            let path = "/orders/v1/orders/\(Self.orderType)/SHOP-1"
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<(OrderWebService.signingLimit.burst + 1) {
                statuses.append(try await client.execute(uri: path, method: .get, headers: auth) { $0.status })
            }
            #expect(statuses.dropLast().allSatisfy { $0 == .ok })
            #expect(statuses.last == .tooManyRequests)
            let yaml = try String(contentsOf: SourceTree.appending("docs/openapi.yaml"), encoding: .utf8)
            let route = try #require(
                yaml.components(separatedBy: "\n  /orders/v1/orders/{orderTypeIdentifier}/").dropFirst().first)
            #expect(
                route.components(separatedBy: "\n  /").first?.contains("\"429\"") == true,
                "docs/openapi.yaml lists the fetch's 429")
            var conditional = auth
            conditional[.ifModifiedSince] = HTTPDate.format(Date().addingTimeInterval(60))
            for _ in 0..<30 {
                #expect(
                    try await client.execute(uri: path, method: .get, headers: conditional) { $0.status }
                        == .notModified)
            }
        }
    }
}

@Suite("A client's orders hold at most their quota of bytes, on every replica")
struct OrderStorageQuotaTests {
    func order(_ world: ProvisioningWorld, _ identifier: String, bytes: Int) async throws -> StoredOrder {
        let orderType = try #require(try await world.repository.passTypes().first { $0.kind == .order })
        var json = Order(
            orderTypeIdentifier: orderType.passTypeIdentifier, orderIdentifier: identifier,
            merchant: .init(displayName: "Acme", merchantIdentifier: "merchant.com.acme", url: "https://acme.example"),
            orderManagementURL: "https://acme.example/o")
        json.merchant.logo = "logo.pdf"
        let content = try OrderPackage(order: json, files: ["logo.pdf": Data("%PDF-".utf8) + Data(count: bytes)])
        return StoredOrder(
            clientID: world.apiUser.clientID, orderTypeID: orderType.id, orderIdentifier: identifier,
            content: try content.archived(), authentication: .init(salt: "s", tokenHash: Data(count: 32)),
            createdAt: Date(), modifiedAt: Date())
    }

    @Test(
        "a create or a change past the quota stores nothing; one that shrinks always goes", arguments: Engine.available)
    func quota(_ engine: Engine) async throws {
        try await ProvisioningWorld.with(engine, orders: true) { world in
            let repository = world.repository
            let first = try await order(world, "Q-1", bytes: 10_000)
            let limit = first.content.count + 5_000
            _ = try await repository.createOrder(first, claim: nil, now: Date(), storageLimit: limit) { _ in Data() }
            await #expect(throws: PassManagementFailure.self) {
                try await repository.createOrder(
                    try await order(world, "Q-2", bytes: 10_000), claim: nil, now: Date(), storageLimit: limit
                ) { _ in Data() }
            }
            #expect(
                try await repository.order(
                    orderTypeIdentifier: ProvisioningWorld.orderTypeIdentifier, orderIdentifier: "Q-2") == nil)
            let bigger = try await order(world, "Q-1", bytes: 20_000).content
            await #expect(throws: PassManagementFailure.self) {
                try await repository.changeOrder(id: first.id, now: Date(), storageLimit: limit) { _ in bigger }
            }
            let smaller = try await order(world, "Q-1", bytes: 10).content
            _ = try await repository.changeOrder(id: first.id, now: Date(), storageLimit: 0) { _ in smaller }
            _ = try await repository.createOrder(
                try await order(world, "Q-3", bytes: 2_000), claim: nil, now: Date(), storageLimit: limit
            ) { _ in Data() }
        }
    }
}
