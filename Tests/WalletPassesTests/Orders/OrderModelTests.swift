import Foundation
import PropertyBased
import Testing
@testable import WalletDocuments
@testable import WalletOrders
@testable import WalletPasses

@Suite("Order: every documented key typed, every key kept")
struct OrderModelTests {
    @Test("an order reads back what it wrote, unknown keys included")
    func roundTrip() throws {
        var order = OrderFixtures.order()
        order.json["futureKey"] = .object(["nested": .array([.number(1), .string("x")])])
        let read = try Order(json: try order.encoded())
        #expect(read == order)
        #expect(read.additionalKeys == ["futureKey": .object(["nested": .array([.number(1), .string("x")])])])
    }

    @Test("generated orders with any documented key, at every depth, come back as they were and lint without trapping")
    func generated() async throws {
        let orders = Generator<[String: JSONValue], AnySequence<[String: JSONValue]>>(
            run: { rng in PassJSONGenerator.dictionary(Order.schema, depth: 0, using: &rng) },
            shrink: { _ in AnySequence([]) })
        await propertyCheck(count: 200, input: orders) { document in
            let order = try Order(json: JSONValue.object(document).serialized())
            #expect(order.json == document)
            #expect(try Order(json: try order.encoded()) == order)
            _ = order.lint(files: [:])
        }
    }

    @Test("fulfilments are told apart by fulfillmentType; an unknown type is kept as read")
    func fulfillments() throws {
        var order = OrderFixtures.order()
        order.json["fulfillments"] = .array(
            (order.json["fulfillments"].flatMap { if case .array(let items) = $0 { items } else { nil } } ?? [])
                + [.object(["fulfillmentType": .string("drone"), "fulfillmentIdentifier": .string("d-1")])])
        let fulfillments = try #require(order.fulfillments)
        guard case .shipping(let shipment) = fulfillments[0], case .pickup(let pickup) = fulfillments[1],
            case .other(let other) = fulfillments[2]
        else { Issue.record("unexpected fulfilments \(fulfillments)"); return }
        #expect(shipment.status == .shipped)
        #expect(pickup.location?.latitude == 48.85)
        #expect(other["fulfillmentType"] == .string("drone"))
        #expect(fulfillments.map(\.fulfillmentIdentifier) == ["parcel-1", "store-1", "d-1"])
    }

    @Test("a new order is schema version 1, ecommerce, open, updated when created")
    func newOrder() {
        let order = OrderFixtures.order()
        #expect(order.schemaVersion == 1)
        #expect(order.orderType == .ecommerce)
        #expect(order.status == .open)
        #expect(order.updatedAt == order.createdAt)
    }

    @Test("an amount Apple documents as text reads from a JSON number too")
    func amountAsNumber() {
        let amount = Order.CurrencyAmount(json: ["amount": .number(28.8), "currency": .string("USD")])
        #expect(amount.amount == "28.8")
    }
}
