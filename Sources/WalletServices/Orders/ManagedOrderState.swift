import Foundation
import WalletDocuments
import WalletOrders

/// What the management API answers about an order: its identifiers, its `order.json` as stored, where it stands
/// with devices, and the details Apple Pay hands Wallet (`PKPaymentOrderDetails`, `orderDetails` on the web).
package struct ManagedOrderState: Encodable, Hashable, Sendable {
    /// What Apple Pay's payment result carries so that Wallet fetches the order: the four values of
    /// `PKPaymentOrderDetails` and of Apple Pay on the web's `orderDetails`, named as Apple names them.
    package struct ApplePayOrderDetails: Encodable, Hashable, Sendable {
        /// The order type identifier.
        package var orderTypeIdentifier: String
        /// The order's identifier.
        package var orderIdentifier: String
        /// The web service Wallet fetches the order from.
        package var webServiceURL: String
        /// The order's token, which Wallet presents to the web service.
        package var authenticationToken: String
    }

    /// The order's own identifier.
    package var id: UUID
    /// The order type identifier.
    package var orderTypeIdentifier: String
    /// Wallet's order identifier.
    package var orderIdentifier: String
    /// The status in `order.json`, if it has one Apple documents.
    package var status: String?
    /// When it was made.
    package var createdAt: Date
    /// Its `updatedAt` and `Last-Modified`.
    package var updatedAt: Date
    /// Its update tag, as text (as a pass's state writes it).
    package var updateTag: String
    /// How many devices are registered for its updates.
    package var registeredDevices: Int
    /// `order.json` as stored (without the web service's keys).
    package var order: JSONValue
    /// The package's other files.
    package var files: [String]
    /// What Apple Pay hands Wallet; `nil` when the server has no https public URL for the web service.
    package var applePayOrderDetails: ApplePayOrderDetails?

    enum CodingKeys: String, CodingKey {
        case id
        case orderTypeIdentifier = "order_type_identifier"
        case orderIdentifier = "order_identifier"
        case status
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case updateTag = "update_tag"
        case registeredDevices = "registered_devices"
        case order, files
        case applePayOrderDetails = "apple_pay_order_details"
    }

    /// The state of `order`, of the order type `orderType`, with `registeredDevices` devices, as `renderer` signs it.
    package init(
        _ order: StoredOrder, orderType: PassType, registeredDevices: Int, renderer: OrderRenderer
    ) throws {
        let package = try OrderPackage(archive: order.content)
        let json = try package.order
        id = order.id
        orderTypeIdentifier = orderType.passTypeIdentifier
        orderIdentifier = order.orderIdentifier
        status = json.status?.rawValue
        createdAt = order.createdAt
        updatedAt = order.modifiedAt
        updateTag = String(order.updateTag)
        self.registeredDevices = registeredDevices
        self.order = .object(json.json)
        files = package.files.keys.filter { $0 != "order.json" }.sorted()
        applePayOrderDetails = renderer.webServiceURL.map {
            ApplePayOrderDetails(
                orderTypeIdentifier: orderType.passTypeIdentifier, orderIdentifier: order.orderIdentifier,
                webServiceURL: $0, authenticationToken: renderer.token(of: order))
        }
    }

    /// The JSON body, as the management API writes it.
    package func encoded() throws -> Data { try ManagedPassState.encoder.encode(self) }
}
