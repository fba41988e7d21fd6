import Foundation
import HTTPTypes
import Hummingbird
import WalletServices

/// The management API's webhook endpoints (`/api/v2/webhook_endpoints`): make one (its signing secret answered
/// once), list them, delete one. Authenticated like the rest of the management API and scoped to the API user's
/// client.
struct WebhookEndpointsController: Sendable {
    /// The endpoints, or `nil` when the server has no secret store to keep their secrets in.
    let endpoints: WebhookEndpoints?
    let repository: any APITokenStore

    /// The path of the endpoints' list.
    static let path = "/api/v2/webhook_endpoints"

    func addRoutes(to group: RouterGroup<WalletRequestContext>) {
        group.post(use: create)
        group.get(use: list)
        group.delete("{endpoint_id}", use: delete)
    }

    /// The body of a create: a URL and, optionally, the event types (all when absent; not `null`).
    struct CreateRequest: Decodable {
        let url: String
        let eventTypes: [WebhookEventType]?

        enum CodingKeys: String, CodingKey {
            case url
            case eventTypes = "event_types"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            url = try container.decode(String.self, forKey: .url)
            eventTypes = try container.decodeUnlessAbsent([WebhookEventType].self, forKey: .eventTypes)
        }
    }

    /// An endpoint as the API shows it: its secret only in the answer that made it.
    struct EndpointBody: Encodable {
        let id: UUID
        let url: String
        let eventTypes: [String]
        let createdAt: String
        let secret: String?

        enum CodingKeys: String, CodingKey {
            case id, url, secret
            case eventTypes = "event_types"
            case createdAt = "created_at"
        }

        init(_ endpoint: WebhookEndpoint, secret: String? = nil) {
            id = endpoint.id
            url = endpoint.url
            eventTypes = endpoint.eventTypes.map(\.rawValue).sorted()
            createdAt = PassTrace.time(endpoint.createdAt)
            self.secret = secret
        }
    }

    /// The body of the list.
    struct EndpointList: Encodable {
        let webhookEndpoints: [EndpointBody]

        enum CodingKeys: String, CodingKey {
            case webhookEndpoints = "webhook_endpoints"
        }
    }

    @Sendable func create(request: Request, context: WalletRequestContext) async throws -> Response {
        let clientID = try await authenticate(request)
        let endpoints = try available()
        let body = try await JSONBody.decode(CreateRequest.self, from: request, limit: 8 * 1024)
        let created = try await ManagementController.answering {
            try await endpoints.create(clientID: clientID, url: body.url, eventTypes: body.eventTypes.map(Set.init))
        }
        var response = try JSONBody.response(EndpointBody(created.endpoint, secret: created.secret), status: .created)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func list(request: Request, context: WalletRequestContext) async throws -> Response {
        let clientID = try await authenticate(request)
        let endpoints = try available()
        let list = try await ManagementController.answering { try await endpoints.list(clientID: clientID) }
        return try JSONBody.response(EndpointList(webhookEndpoints: list.map { EndpointBody($0) }))
    }

    @Sendable func delete(request: Request, context: WalletRequestContext) async throws -> Response {
        let clientID = try await authenticate(request)
        let endpoints = try available()
        guard let id = context.parameters.get("endpoint_id").flatMap(UUID.init(uuidString:)) else {
            throw APIError.notFound("no webhook endpoint with this identifier")
        }
        try await ManagementController.answering { try await endpoints.delete(id: id, clientID: clientID) }
        return Response(status: .noContent)
    }

    private func authenticate(_ request: Request) async throws -> UUID {
        try await BasicCredentials.apiUser(of: request, in: repository).clientID
    }

    private func available() throws -> WebhookEndpoints {
        guard let endpoints else {
            throw APIError(
                .serviceUnavailable, code: "unavailable", message: "this server keeps no secrets for webhooks")
        }
        return endpoints
    }
}
