import Foundation
import Hummingbird
import Logging
import WalletPasses
import WalletServices

/// The in-app provisioning routes: issuer data (authenticated) and the device callback (unauthenticated,
/// one-time session).
struct ProvisioningController: Sendable {
    let repository: any APITokenStore
    let service: ProvisioningService
    /// Counts each API token's issuer-data requests.
    let limiter: RateLimiter<UUID>
    /// Where refused (rate-limited) requests are counted.
    let metrics: ServerMetrics
    /// Who sent a callback: its budget is per client address.
    let clientAddress: ClientAddress
    /// Counts each client address's callbacks (the route is unauthenticated).
    let callbackLimiter: RateLimiter<String>
    /// How many callbacks one client address may make: 60 a minute, 20 at once (a device calls back once per pass
    /// it adds).
    static let callbackLimit = RateLimit(perMinute: 60, burst: 20)

    /// Creates the routes; with `rateBuckets`, the callback's per-address budget is shared by every replica.
    init(
        repository: any APITokenStore, service: ProvisioningService, limiter: RateLimiter<UUID>,
        metrics: ServerMetrics, clientAddress: ClientAddress = ClientAddress(),
        rateBuckets: (any RateBucketStore)? = nil
    ) {
        self.repository = repository
        self.service = service
        self.limiter = limiter
        self.metrics = metrics
        self.clientAddress = clientAddress
        callbackLimiter = RateLimiter<String>(
            limit: Self.callbackLimit, shared: rateBuckets.map { (name: "callbacks", store: $0) })
    }

    struct IssuerDataRequest: Decodable {
        let tagID: String
        let idAttribute: TagIDAttribute?

        enum CodingKeys: String, CodingKey {
            case tagID = "tag_id"
            case idAttribute = "id_attribute"
        }

        /// `id_attribute` may be absent (the reference ID is meant) but not `null`, as docs/openapi.yaml says.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            tagID = try container.decode(String.self, forKey: .tagID)
            idAttribute = try container.decodeUnlessAbsent(TagIDAttribute.self, forKey: .idAttribute)
        }
    }

    struct CallbackRequest: Decodable {
        let issuerBindingData: String
        let keyHash: String
    }

    func addRoutes(to group: RouterGroup<WalletRequestContext>) {
        group.post("issuer_data", use: issuerData)
        group.post("callback", use: callback)
    }

    @Sendable func issuerData(request: Request, context: WalletRequestContext) async throws -> Response {
        let apiUser = try await Self.issuer(of: request, repository: repository, limiter: limiter, metrics: metrics)
        let body = try await JSONBody.decode(IssuerDataRequest.self, from: request)
        let response = try await Self.mappingFailures {
            try await service.issuerData(for: apiUser, tagID: body.tagID, attribute: body.idAttribute ?? .referenceID)
        }
        return try JSONBody.response(response)
    }

    /// The API user of a request that signs issuer data, counted once against its issuance limit: every
    /// authenticated request counts, also one that turns out to be malformed or for an unknown tag.
    ///
    /// - Throws: ``APIError/unauthorized`` without a valid token, a `429` ``APIError`` (counted in `metrics`) when
    ///   the token's bucket is empty.
    static func issuer(
        of request: Request, repository: any APITokenStore, limiter: RateLimiter<UUID>, metrics: ServerMetrics
    ) async throws -> APIUser {
        let apiUser = try await BasicCredentials.apiUser(of: request, in: repository)
        if case .limited(let wait) = await limiter.acquireAcrossReplicas(for: apiUser.id) {
            metrics.requestRateLimited()
            throw APIError.rateLimited(retryAfter: wholeSeconds(wait))
        }
        return apiUser
    }

    /// Runs `body`, answering the provisioning service's refusals as the API's errors.
    static func mappingFailures<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let failure as ProvisioningService.Failure {
            throw apiError(failure)
        }
    }

    @Sendable func callback(request: Request, context: WalletRequestContext) async throws -> Response {
        // As docs/openapi.yaml describes it: 1 to 256 characters.
        guard let session = request.uri.queryParameters.get("sessionIdentifier"), (1...256).contains(session.count)
        else {
            throw APIError.badRequest("the sessionIdentifier query parameter is required (1 to 256 characters)")
        }
        let address = clientAddress.limiterKey(of: request, context: context)
        if case .limited(let wait) = await callbackLimiter.acquireAcrossReplicas(for: address) {
            metrics.requestRateLimited()
            throw APIError.rateLimited(retryAfter: Self.wholeSeconds(wait))
        }
        let body = try await JSONBody.decode(CallbackRequest.self, from: request)
        let pkpass = try await Self.mappingFailures {
            try await service.completeBinding(
                sessionIdentifier: session, issuerBindingData: body.issuerBindingData, keyHash: body.keyHash)
        }
        // The pass carries its new authentication token: no cache may keep it.
        return Response(
            status: .ok, headers: [.contentType: "application/vnd.apple.pkpass", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: pkpass)))
    }

    /// `duration` rounded up to whole seconds, at least 1 (what `Retry-After` carries).
    static func wholeSeconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
    }

    static func apiError(_ failure: ProvisioningService.Failure) -> APIError {
        switch failure {
        case .notFound(let message): return .notFound(message)
        case .invalidRequest(let message): return .badRequest(message)
        case .forbidden(let message): return APIError(.forbidden, code: "forbidden", message: message)
        case .notIssuable(let message): return APIError(.conflict, code: "not_issuable", message: message)
        }
    }
}
