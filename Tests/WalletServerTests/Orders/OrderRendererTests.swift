import Crypto
import Foundation
import Secrets
import Testing
import WalletDocuments
import WalletOrders
import WalletPasses

@testable import WalletServices

@Suite("OrderRenderer: the order as Wallet gets it")
struct OrderRendererTests {
    let renderer = OrderRenderer(
        identities: SigningIdentityCache(store: AggregateSecretsStore(backend: InMemoryBackend())),
        tokens: PassAuthenticationTokens(key: SymmetricKey(size: .bits256)),
        webServiceURL: "https://wallet.example.com/orders")

    func stored(createdAt: String, modifiedAt: Date) throws -> StoredOrder {
        var order = Order(
            orderTypeIdentifier: "order.dev.coffer.server", orderIdentifier: "A-1",
            merchant: .init(displayName: "Acme", merchantIdentifier: "merchant.com.acme", url: "https://acme.example"),
            orderManagementURL: "https://acme.example/o/1")
        order.json["createdAt"] = .string(createdAt)
        order.json["updatedAt"] = .string(createdAt)
        let id = UUID()
        return StoredOrder(
            id: id, clientID: UUID(), orderTypeID: UUID(), orderIdentifier: "A-1",
            content: try OrderPackage(order: order).archived(),
            authentication: renderer.tokens.newToken(orderID: id).assignment,
            createdAt: modifiedAt, modifiedAt: modifiedAt)
    }

    @Test(
        "updatedAt is never before createdAt, even where a stored millisecond reads back a hair early",
        arguments: [1_795_000_001_123, 1_795_000_001_001, 1_795_000_001_999] as [Int64])
    func updatedAtNotBeforeCreated(_ milliseconds: Int64) throws {
        let modified = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        let created = "2026-11-18T11:06:41.\(String(milliseconds % 1000).leftPadded(to: 3))Z"
        let package = try renderer.package(of: try stored(createdAt: created, modifiedAt: modified))
        #expect(package.lint().errors.isEmpty, "\(package.lint().errors)")
        let order = try package.order
        #expect(order.webServiceURL == "https://wallet.example.com/orders")
        #expect((order.authenticationToken?.count ?? 0) >= 16)
    }

    @Test("after a change, updatedAt is the change's Last-Modified")
    func updatedAtFollowsChanges() throws {
        let modified = Date(timeIntervalSince1970: 1_795_000_100)
        let order = try renderer.package(of: try stored(createdAt: "2026-11-18T11:06:41Z", modifiedAt: modified)).order
        #expect(order.updatedAt == modified)
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
