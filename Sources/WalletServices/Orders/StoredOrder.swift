import Foundation
import WalletOrders

/// An order as the server keeps it: its unsigned package, whose `order.json` the client wrote, and what the web
/// service adds when it signs (the token, `webServiceURL`, `updatedAt`).
package struct StoredOrder: Hashable, Sendable, Identifiable {
    /// The order's own identifier (not Wallet's).
    package var id: UUID
    /// The client that made it.
    package var clientID: UUID
    /// Its order type (a ``PassType`` of kind ``PassType/Kind-swift.enum/order``).
    package var orderTypeID: UUID
    /// Wallet's `orderIdentifier`, unique within the order type.
    package var orderIdentifier: String
    /// The unsigned package (`OrderPackage/archived()`).
    package var content: Data
    /// The salt its `authenticationToken` is made from, and the token's SHA-256.
    package var authentication: PassAuthenticationTokens.Assignment
    /// When it was made.
    package var createdAt: Date
    /// Its `Last-Modified` and `updatedAt`: whole seconds apart from one change to the next.
    package var modifiedAt: Date
    /// Its update tag: devices list the orders changed after the tag they last saw.
    package var updateTag: Int64

    /// Creates a record.
    package init(
        id: UUID = UUID(), clientID: UUID, orderTypeID: UUID, orderIdentifier: String, content: Data,
        authentication: PassAuthenticationTokens.Assignment, createdAt: Date, modifiedAt: Date, updateTag: Int64 = 0
    ) {
        self.id = id
        self.clientID = clientID
        self.orderTypeID = orderTypeID
        self.orderIdentifier = orderIdentifier
        self.content = content
        self.authentication = authentication
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.updateTag = updateTag
    }
}
