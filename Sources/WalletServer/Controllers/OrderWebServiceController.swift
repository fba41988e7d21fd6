import Foundation
import Hummingbird
import WalletPasses
import WalletServices

/// The Wallet Orders web service's routes (version 1), under the `webServiceURL` orders carry (`/orders`). The
/// per-address budgets of registrations and logs are the passes' own (one budget per address for both).
struct OrderWebServiceController: Sendable {
    let service: OrderWebService
    /// The passes' web service: its budgets, and its device logs.
    let passes: PassWebServiceController

    /// The path the web service is mounted at; orders carry `<public URL>/orders` as their `webServiceURL`.
    static let mountPath = "/orders"

    struct Registration: Decodable {
        let pushToken: String
    }

    struct OrderIdentifiers: Encodable {
        let orderIdentifiers: [String]
        let lastModified: String
    }

    func addRoutes(to group: RouterGroup<WalletRequestContext>) {
        group.post("v1/devices/:device/registrations/:orderType/:order", use: register)
        group.delete("v1/devices/:device/registrations/:orderType/:order", use: unregister)
        group.get("v1/devices/:device/registrations/:orderType", use: updatedOrders)
        group.get("v1/orders/:orderType/:order", use: latestOrder)
        group.post("v1/log", use: passes.log)
    }

    @Sendable func register(request: Request, context: WalletRequestContext) async throws -> Response {
        // Without a token there is nothing to look up: answered before the address's budget is counted.
        guard request.headers[.authorization] != nil else { throw PassWebServiceController.noToken }
        try await passes.limit(request, context, with: passes.registrationLimiter, what: "registrations")
        let body = try await JSONBody.decode(Registration.self, from: request, limit: 4096)
        let created = try await passes.run {
            try await service.register(
                deviceLibraryIdentifier: try PassWebServiceController.parameter("device", context),
                orderTypeIdentifier: try PassWebServiceController.parameter("orderType", context),
                orderIdentifier: try PassWebServiceController.parameter("order", context), pushToken: body.pushToken,
                authorization: request.headers[.authorization])
        }
        return Response(status: created ? .created : .ok)
    }

    @Sendable func unregister(request: Request, context: WalletRequestContext) async throws -> Response {
        try await passes.run {
            try await service.unregister(
                deviceLibraryIdentifier: try PassWebServiceController.parameter("device", context),
                orderTypeIdentifier: try PassWebServiceController.parameter("orderType", context),
                orderIdentifier: try PassWebServiceController.parameter("order", context),
                authorization: request.headers[.authorization])
        }
        return Response(status: .ok)
    }

    @Sendable func updatedOrders(request: Request, context: WalletRequestContext) async throws -> Response {
        let since = request.uri.queryParameters.get("ordersModifiedSince")
        guard
            let updated = try await passes.run({
                try await service.updatedOrders(
                    deviceLibraryIdentifier: try PassWebServiceController.parameter("device", context),
                    orderTypeIdentifier: try PassWebServiceController.parameter("orderType", context),
                    ordersModifiedSince: since)
            })
        else { return Response(status: .noContent) }
        return try JSONBody.response(
            OrderIdentifiers(orderIdentifiers: updated.orderIdentifiers, lastModified: updated.lastModified))
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
