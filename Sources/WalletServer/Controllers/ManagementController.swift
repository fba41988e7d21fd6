import Foundation
import HTTPTypes
import Hummingbird
import WalletServices

/// The management API for clients' backends (`/api/v2/passes`): create a tag with its pass (idempotently), read,
/// change, void or expire a pass, list a client's passes, download a pass, make its share links and read its trace;
/// and the pass types shared with the client (`/api/v2/pass_types`). Authenticated like issuer data (HTTP Basic, the
/// API token as the user name) and scoped to the API user's client: another client's tag is 404.
struct ManagementController: Sendable {
    /// Finds the API user of a request's token.
    let apiTokens: any APITokenStore
    let management: PassManagement
    /// Hands out the passes' archives and share links.
    let distribution: PassDistribution
    /// Reads and diagnoses the passes' traces.
    let trace: PassTrace
    /// Counts each API user's requests that cost a signature, pushes or webhooks (`RateLimit/passChanges`).
    let changeLimiter: RateLimiter<UUID>
    /// Hands out "Add to Google Wallet" links, where the server has a Google Wallet set-up.
    var googleLinks: GoogleWalletLinks? = nil

    /// The header a create's idempotency key comes in.
    static let idempotencyKeyHeader = HTTPField.Name("Idempotency-Key")!
    /// The header that marks an answer replayed for an idempotency key (nothing was created by this request).
    static let replayedHeader = HTTPField.Name("Idempotency-Replayed")!
    /// The largest body a request may send: every route's.
    static let maximumBodySize = JSONBody.defaultLimit

    func addRoutes(to group: RouterGroup<WalletRequestContext>) {
        group.post(use: create)
        group.get(use: list)
        group.get("{tag_id}", use: state)
        group.patch("{tag_id}", use: update)
        group.post("{tag_id}/void", use: void)
        group.post("{tag_id}/expire", use: expire)
        group.get("{tag_id}/pkpass", use: archive)
        group.post("{tag_id}/share_links", use: createShareLink)
        group.get("{tag_id}/share_links", use: shareLinks)
        group.delete("{tag_id}/share_links/{link_id}", use: revokeShareLink)
        group.get("{tag_id}/events", use: events)
        group.post("{tag_id}/google_save_link", use: createGoogleSaveLink)
    }

    /// `GET /api/v2/pass_types`: the pass types shared with the caller's client.
    func addPassTypeRoutes(to group: RouterGroup<WalletRequestContext>) {
        group.get(use: passTypes)
    }

    /// The path of the pass types' list.
    static let passTypesPath = "/api/v2/pass_types"

    @Sendable func create(request: Request, context: WalletRequestContext) async throws -> Response {
        let clientID = try await authenticate(request, costs: true)
        let key = try Self.idempotencyKey(of: request)
        let stored = try await Self.answering {
            let creation = try await JSONBody.decode(
                PassCreationRequest.self, from: request, limit: Self.maximumBodySize)
            return try await management.create(creation, clientID: clientID, idempotencyKey: key)
        }
        return Self.response(stored)
    }

    /// The request's `Idempotency-Key`, if it sent one; 400 for one that is not 1–255 printable ASCII characters.
    static func idempotencyKey(of request: Request) throws -> IdempotencyKey? {
        guard let text = request.headers[idempotencyKeyHeader] else { return nil }
        guard let key = IdempotencyKey(text) else {
            throw APIError.badRequest("the Idempotency-Key header must be 1–255 printable ASCII characters")
        }
        return key
    }

    /// A create's answer, marked `Idempotency-Replayed` when it is the stored answer to an earlier request.
    static func response(_ stored: StoredResponse) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if stored.replayed { headers[replayedHeader] = "true" }
        return Response(
            status: HTTPResponse.Status(code: stored.status), headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: stored.body)))
    }

    @Sendable func list(request: Request, context: WalletRequestContext) async throws -> Response {
        let clientID = try await authenticate(request)
        let query = request.uri.queryParameters
        var limit = 50
        if let text = query.get("limit") {
            guard let parsed = Int(text), (1...PassManagement.maximumPageSize).contains(parsed) else {
                throw APIError.badRequest("'limit' must be a whole number 1–\(PassManagement.maximumPageSize)")
            }
            limit = parsed
        }
        let page = try await Self.answering {
            try await management.list(clientID: clientID, limit: limit, cursor: query.get("cursor"))
        }
        return JSONBody.response(encoded: try Self.encoder.encode(page))
    }

    @Sendable func passTypes(request: Request, context: WalletRequestContext) async throws -> Response {
        let clientID = try await authenticate(request)
        let passTypes = try await Self.answering { try await management.passTypes(clientID: clientID) }
        return try JSONBody.response(PassTypeList(passTypes: passTypes))
    }

    /// The body of `GET /api/v2/pass_types`.
    struct PassTypeList: Encodable {
        let passTypes: [ManagedPassType]

        enum CodingKeys: String, CodingKey {
            case passTypes = "pass_types"
        }
    }

    @Sendable func state(request: Request, context: WalletRequestContext) async throws -> Response {
        let (clientID, attribute, value) = try await target(request, context: context)
        let state = try await Self.answering {
            try await management.state(clientID: clientID, attribute: attribute, value: value)
        }
        return JSONBody.response(encoded: try state.encoded())
    }

    @Sendable func update(request: Request, context: WalletRequestContext) async throws -> Response {
        let (clientID, attribute, value) = try await target(request, context: context, costs: true)
        let state = try await Self.answering {
            let change = try await JSONBody.decode(PassChangeRequest.self, from: request, limit: Self.maximumBodySize)
            return try await management.update(
                clientID: clientID, attribute: attribute, value: value, change: change.change)
        }
        return JSONBody.response(encoded: try state.encoded())
    }

    @Sendable func void(request: Request, context: WalletRequestContext) async throws -> Response {
        let (clientID, attribute, value) = try await target(request, context: context, costs: true)
        let state = try await Self.answering {
            try await management.void(clientID: clientID, attribute: attribute, value: value)
        }
        return JSONBody.response(encoded: try state.encoded())
    }

    @Sendable func expire(request: Request, context: WalletRequestContext) async throws -> Response {
        let (clientID, attribute, value) = try await target(request, context: context, costs: true)
        let state = try await Self.answering {
            try await management.expire(clientID: clientID, attribute: attribute, value: value)
        }
        return JSONBody.response(encoded: try state.encoded())
    }

    /// The client of the request's API user; 401 without a valid token, and for a request that `costs` a signature
    /// or deliveries, 429 once the API user spent its change budget.
    private func authenticate(_ request: Request, costs: Bool = false) async throws -> UUID {
        try await BasicCredentials.client(of: request, in: apiTokens, costs: costs, limiter: changeLimiter)
    }

    /// The authenticated client and the tag the path and `id_attribute` name; a request that `costs` counts against
    /// the API user's change budget.
    func target(_ request: Request, context: WalletRequestContext, costs: Bool = false) async throws
        -> (clientID: UUID, attribute: TagIDAttribute, value: String)
    {
        let clientID = try await authenticate(request, costs: costs)
        let raw = context.parameters.get("tag_id") ?? ""
        let value = raw.removingPercentEncoding ?? raw
        guard ManagementBody.isIdentifier(value) else {
            throw APIError.badRequest(
                "the tag identifier in the path must be 1–256 characters without control characters, not starting "
                    + "with a space")
        }
        var attribute = TagIDAttribute.referenceID
        if let text = request.uri.queryParameters.get("id_attribute") {
            guard let parsed = TagIDAttribute(rawValue: text) else {
                throw APIError.badRequest("'id_attribute' must be reference_id, pronto_tag_id or subscription_id")
            }
            attribute = parsed
        }
        return (clientID, attribute, value)
    }

    /// Runs `body`, answering its `PassManagementFailure` as the API's errors.
    static func answering<R>(_ body: () async throws -> R) async throws -> R {
        do {
            return try await body()
        } catch let failure as PassManagementFailure {
            throw Self.apiError(failure)
        }
    }

    static func apiError(_ failure: PassManagementFailure) -> APIError {
        switch failure {
        case .notFound: return .notFound(failure.description)
        case .invalidRequest: return .badRequest(failure.description)
        case .conflict: return APIError(.conflict, code: "conflict", message: failure.description)
        case .forbidden: return APIError(.forbidden, code: "forbidden", message: failure.description)
        case .unsupportedHere: return APIError(.conflict, code: "unsupported_here", message: failure.description)
        case .limitReached: return APIError(.tooManyRequests, code: "limit_reached", message: failure.description)
        case .invalidPass(let findings):
            return APIError(.badRequest, code: "invalid_pass", message: failure.description, findings: findings)
        case .invalidOrder(let findings):
            return APIError(.badRequest, code: "invalid_order", message: failure.description, findings: findings)
        case .idempotencyKeyReused:
            return APIError(.unprocessableContent, code: "idempotency_key_reused", message: failure.description)
        }
    }

    /// Made once: a coder is safe to share between requests as long as no one changes its options.
    private static let encoder: JSONEncoder = ManagedPassState.encoder
}
