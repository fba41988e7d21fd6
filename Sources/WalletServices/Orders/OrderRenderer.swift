import Foundation
import WalletDocuments
import WalletOrders

/// Signs an order as a device gets it: its stored package with the web service's `webServiceURL`, the order's
/// `authenticationToken` and its `updatedAt` (its `Last-Modified`) written into `order.json`, signed by its order
/// type's current identity.
package struct OrderRenderer: Sendable {
    /// The order types' identities.
    package let identities: SigningIdentityCache
    /// What makes each order's token.
    package let tokens: PassAuthenticationTokens
    /// The `webServiceURL` orders carry (`<public URL>/orders`), or `nil` when the server has no https public URL:
    /// its orders then get no updates.
    package let webServiceURL: String?

    /// Creates the renderer.
    package init(identities: SigningIdentityCache, tokens: PassAuthenticationTokens, webServiceURL: String?) {
        self.identities = identities
        self.tokens = tokens
        self.webServiceURL = webServiceURL
    }

    /// The order's token.
    package func token(of order: StoredOrder) -> String {
        tokens.token(orderID: order.id, salt: order.authentication.salt)
    }

    /// `order`'s package as it is signed: `order.json` with the web service's keys and `updatedAt`.
    package func package(of order: StoredOrder) throws -> OrderPackage {
        var package = try OrderPackage(archive: order.content)
        var json = try package.order
        if let webServiceURL {
            json.webServiceURL = webServiceURL
            json.authenticationToken = token(of: order)
        }
        // Never before createdAt, which may carry a millisecond the stored Last-Modified rounded away: then the same
        // text as createdAt.
        if let created = json.createdAt, created >= order.modifiedAt {
            json.json["updatedAt"] = json.json["createdAt"]
        } else {
            json.updatedAt = order.modifiedAt
        }
        try package.setOrder(json)
        return package
    }

    /// The signed `.order` of `order`, of the order type `orderType`.
    ///
    /// - Throws: `WalletDocumentError` when the identity cannot be loaded or the order no longer lints clean.
    package func signedArchive(of order: StoredOrder, orderType: PassType, signingTime: Date) async throws -> Data {
        let identity = try await identities.identity(for: orderType)
        return try DocumentSigner(identity: identity).sign(try package(of: order), signingTime: signingTime).archive
    }
}
