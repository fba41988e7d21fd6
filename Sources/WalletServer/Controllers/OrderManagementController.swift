import Foundation
import HTTPTypes
import Hummingbird
import WalletOrders
import WalletServices

/// The management API's orders (`/api/v2/orders`): create one (idempotently), read it with its Apple Pay order
/// details, change it, download it signed, and read its trace. Authenticated like the passes' routes (HTTP Basic,
/// the API token as the user name), scoped to the API user's client (another client's order is 404), and every
/// request that signs or pushes counts against the API user's change budget.
struct OrderManagementController: Sendable {
    /// Finds the API user of a request's token.
    let apiTokens: any APITokenStore
    let management: OrderManagement
    /// Reads the orders' traces.
    let trace: PassTrace
    /// Counts each API user's requests that cost a signature, pushes or webhooks, with the passes'.
    let changeLimiter: RateLimiter<UUID>

    /// The path the routes are mounted at.
    static let path = "/api/v2/orders"

    func addRoutes(to group: RouterGroup<WalletRequestContext>) {
        group.post(use: create)
        group.get(":orderType/:order", use: state)
        group.patch(":orderType/:order", use: update)
        group.get(":orderType/:order/order", use: archive)
        group.get(":orderType/:order/events", use: events)
    }

    @Sendable func create(request: Request, context: WalletRequestContext) async throws -> Response {
        let clientID = try await authenticate(request, costs: true)
        let key = try ManagementController.idempotencyKey(of: request)
        let stored = try await ManagementController.answering {
            let creation = try await JSONBody.decode(
                OrderCreationRequest.self, from: request, limit: OrderManagement.maximumBodySize)
            return try await management.create(creation, clientID: clientID, idempotencyKey: key)
        }
        return ManagementController.response(stored)
    }

    @Sendable func state(request: Request, context: WalletRequestContext) async throws -> Response {
        let (clientID, orderType, order) = try await target(request, context)
        let state = try await ManagementController.answering {
            try await management.state(clientID: clientID, orderTypeIdentifier: orderType, orderIdentifier: order)
        }
        return JSONBody.response(encoded: try state.encoded())
    }

    @Sendable func update(request: Request, context: WalletRequestContext) async throws -> Response {
        let (clientID, orderType, order) = try await target(request, context, costs: true)
        let state = try await ManagementController.answering {
            let change = try await JSONBody.decode(
                OrderChange.self, from: request, limit: OrderManagement.maximumBodySize)
            return try await management.update(
                clientID: clientID, orderTypeIdentifier: orderType, orderIdentifier: order, change: change)
        }
        return JSONBody.response(encoded: try state.encoded())
    }

    @Sendable func archive(request: Request, context: WalletRequestContext) async throws -> Response {
        let (clientID, orderType, order) = try await target(request, context, costs: true)
        let archive = try await ManagementController.answering {
            try await management.signedOrder(clientID: clientID, orderTypeIdentifier: orderType, orderIdentifier: order)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: SignedOrder.mimeType, .cacheControl: "no-store",
                .contentDisposition: "attachment; filename=\"order.order\"",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: archive)))
    }

    /// `GET /api/v2/orders/{order_type_identifier}/{order_identifier}/events?limit=100&cursor=…`: a page of the
    /// order's trace, oldest first.
    @Sendable func events(request: Request, context: WalletRequestContext) async throws -> Response {
        let (clientID, orderType, order) = try await target(request, context)
        let query = request.uri.queryParameters
        let limit = try ManagementController.eventPageLimit(request)
        let page = try await ManagementController.answering { () -> ManagementController.EventPage in
            let state = try await management.state(
                clientID: clientID, orderTypeIdentifier: orderType, orderIdentifier: order)
            let (events, next) = try await trace.events(passID: state.id, cursor: query.get("cursor"), limit: limit)
            return ManagementController.EventPage(events: events, nextCursor: next, diagnosis: [])
        }
        return try JSONBody.response(page)
    }

    /// The client of the request's API user (401 without a valid token; for a request that `costs`, 429 once the API
    /// user spent its change budget), and the order type and order the path names.
    private func target(_ request: Request, _ context: WalletRequestContext, costs: Bool = false) async throws
        -> (clientID: UUID, orderType: String, order: String)
    {
        let clientID = try await authenticate(request, costs: costs)
        let orderType = try PassWebServiceController.parameter("orderType", context)
        let order = try PassWebServiceController.parameter("order", context)
        guard ManagementBody.isIdentifier(orderType), ManagementBody.isIdentifier(order) else {
            throw APIError.badRequest(
                "the order type and order identifiers in the path must be 1–256 characters without control "
                    + "characters, not starting with a space")
        }
        return (clientID, orderType, order)
    }

    private func authenticate(_ request: Request, costs: Bool = false) async throws -> UUID {
        try await BasicCredentials.client(of: request, in: apiTokens, costs: costs, limiter: changeLimiter)
    }
}
