import Foundation
import WalletServices

/// A row of `orders`: an order of a client under an order type.
struct OrderRow: TableRow {
    /// The table the rows are in.
    static let table = "orders"

    /// The columns of `orders`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case clientID = "client_id"
        case orderTypeID = "order_type_id"
        case orderIdentifier = "order_identifier"
        case content
        case authenticationSalt = "authentication_salt"
        case authenticationTokenHash = "authentication_token_hash"
        case createdAt = "created_at"
        case modifiedAt = "modified_at"
        case updateTag = "update_tag"
    }

    /// The order's identifier.
    var id: String
    /// The client that made it.
    var clientID: String
    /// Its order type (a `pass_types` row of kind `order`).
    var orderTypeID: String
    /// Wallet's order identifier.
    var orderIdentifier: String
    /// The unsigned package.
    var content: Data
    /// The salt its token is made from.
    var authenticationSalt: String
    /// The SHA-256 of its token.
    var authenticationTokenHash: Data
    /// When it was made, in milliseconds.
    var createdAt: Int64
    /// Its `Last-Modified`, in milliseconds.
    var modifiedAt: Int64
    /// Its update tag.
    var updateTag: Int64

    /// The row that stores `order`.
    init(_ order: StoredOrder) {
        id = order.id.uuidString
        clientID = order.clientID.uuidString
        orderTypeID = order.orderTypeID.uuidString
        orderIdentifier = order.orderIdentifier
        content = order.content
        authenticationSalt = order.authentication.salt
        authenticationTokenHash = order.authentication.tokenHash
        createdAt = SQLWalletRepository.ms(order.createdAt)
        modifiedAt = SQLWalletRepository.ms(order.modifiedAt)
        updateTag = order.updateTag
    }

    /// The order this row stores.
    func model() throws -> StoredOrder {
        StoredOrder(
            id: try Self.uuid(id, .id), clientID: try Self.uuid(clientID, .clientID),
            orderTypeID: try Self.uuid(orderTypeID, .orderTypeID), orderIdentifier: orderIdentifier, content: content,
            authentication: .init(salt: authenticationSalt, tokenHash: authenticationTokenHash),
            createdAt: SQLWalletRepository.date(createdAt), modifiedAt: SQLWalletRepository.date(modifiedAt),
            updateTag: updateTag)
    }
}
