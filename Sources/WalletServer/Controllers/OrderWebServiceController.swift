import Foundation
import Hummingbird
import WalletOrders
import WalletServices

/// The Wallet Orders web service's routes (version 1), under the `webServiceURL` orders carry (`/orders`). The
/// per-address budgets of registrations and logs are the passes' own (one budget per address for both).
struct OrderWebServiceController: Sendable {
    let service: OrderWebService
    /// The passes' web service: its budgets, and its device logs.
    let passes: PassWebServiceController

    /// The path the web service is mounted at; orders carry `<public URL>/orders` as their `webServiceURL`.
    static let mountPath = "/orders"

    func addRoutes(to group: RouterGroup<WalletRequestContext>) {
        DeviceRegistrationRoutes(registrations: service.registrations, webService: passes).addRoutes(to: group)
        group.get("v1/orders/:orderType/:order", use: latestOrder)
        group.post("v1/log", use: passes.log)
    }

    @Sendable func latestOrder(request: Request, context: WalletRequestContext) async throws -> Response {
        let ifModifiedSince = request.headers[.ifModifiedSince].flatMap(HTTPDate.parse)
        let latest = try await passes.run {
            try await service.latestOrder(
                orderTypeIdentifier: try PassWebServiceController.parameter("orderType", context),
                orderIdentifier: try PassWebServiceController.parameter("order", context),
                authorization: request.headers[.authorization], ifModifiedSince: ifModifiedSince)
        }
        switch latest {
        case .notModified(let lastModified):
            return Response(status: .notModified, headers: [.lastModified: HTTPDate.format(lastModified)])
        case .order(let archive, let lastModified):
            return Response(
                status: .ok,
                headers: [
                    .contentType: SignedOrder.mimeType, .lastModified: HTTPDate.format(lastModified),
                    .cacheControl: "no-store",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: archive)))
        }
    }
}
