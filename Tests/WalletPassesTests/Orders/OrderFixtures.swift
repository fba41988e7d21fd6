import CofferTestSupport
import Foundation
@testable import WalletDocuments
@testable import WalletOrders
@testable import WalletPasses

/// A shipped order with a pickup, a payment and a German localization, and a development Order Type ID identity.
enum OrderFixtures {
    static let orderTypeIdentifier = "order.dev.coffer.example"
    static let created = Date(timeIntervalSince1970: 1_795_000_000)

    static func order(identifier: String = "ORDER-0001") -> Order {
        var order = Order(
            orderTypeIdentifier: orderTypeIdentifier, orderIdentifier: identifier,
            merchant: Order.Merchant(
                displayName: "Coffer Shoes", merchantIdentifier: "merchant.dev.coffer.example",
                url: "https://shop.example.com"),
            orderManagementURL: "https://shop.example.com/orders/1", createdAt: created)
        order.merchant.logo = "logo.png"
        order.orderNumber = "1"
        order.lineItems = [
            Order.LineItem(
                title: "ITEM_SNEAKER", quantity: 1, price: .init(amount: "89.00", currency: "EUR"),
                image: "sneaker.png")
        ]
        var shipment = Order.ShippingFulfillment(fulfillmentIdentifier: "parcel-1", status: .shipped)
        shipment.carrier = "Example Parcel"
        shipment.trackingURL = "https://parcel.example.com/track/1"
        shipment.estimatedDeliveryWindowDuration = "PT4H"
        var pickup = Order.PickupFulfillment(fulfillmentIdentifier: "store-1", displayName: "Main St", status: .open)
        pickup.location = Order.Location(latitude: 48.85, longitude: 2.35)
        pickup.pickupWindowDuration = "P0Y0M0DT0H30M0S"
        order.fulfillments = [.shipping(shipment), .pickup(pickup)]
        order.payment = Order.Payment(
            total: .init(amount: "89.00", currency: "EUR"), status: .paid,
            summaryItems: [.init(label: "SUBTOTAL", value: .init(amount: "89.00", currency: "EUR"))])
        return order
    }

    static func files() -> [String: Data] {
        [
            "logo.png": Fixtures.png(1),
            "sneaker@2x.png": Fixtures.png(2),
            "de.lproj/order.strings": Data(
                "\"ITEM_SNEAKER\" = \"Leinenschuh\";\n\"SUBTOTAL\" = \"Zwischensumme\";\n".utf8),
        ]
    }

    static func package() throws -> OrderPackage {
        try OrderPackage(order: order(), files: files())
    }

    /// One development hierarchy for the whole run (RSA key generation is slow).
    static let identity: DevelopmentIdentity = try! DevelopmentIdentity.generate(
        orderTypeIdentifier: orderTypeIdentifier)
}
