import Foundation
import Hummingbird
import Logging
import WalletServices

/// The Wallet Passes web service's routes (protocol v1), under the `webServiceURL` passes carry (`/passkit`).
struct PassWebServiceController: Sendable {
    let service: PassWebService
    /// Who sent a request: the budgets below are per client address.
    let clientAddress: ClientAddress
    /// Counts each client address's `POST /v1/log` requests (the route is unauthenticated).
    let logLimiter: RateLimiter<String>
    /// Counts each client address's registrations.
    let registrationLimiter: RateLimiter<String>

    /// The path the web service is mounted at; passes carry `<public URL>/passkit` as their `webServiceURL`.
    static let mountPath = "/passkit"
    /// How many `POST /v1/log` requests one client address may send: 60 a minute, 20 at once.
    static let logLimit = RateLimit(perMinute: 60, burst: 20)
    /// How many registrations one client address may make: 30 a minute, 10 at once (a device registers each of
    /// its passes once, and again when its push token changes).
    static let registrationLimit = RateLimit(perMinute: 30, burst: 10)

    /// Creates the routes; with `rateBuckets`, the per-address budgets are shared by every replica.
    init(
        service: PassWebService, clientAddress: ClientAddress = ClientAddress(),
        logLimit: RateLimit = Self.logLimit, registrationLimit: RateLimit = Self.registrationLimit,
        rateBuckets: (any RateBucketStore)? = nil
    ) {
        self.service = service
        self.clientAddress = clientAddress
        self.logLimiter = RateLimiter<String>(
            limit: logLimit, shared: rateBuckets.map { (name: "device-logs", store: $0) })
        self.registrationLimiter = RateLimiter<String>(
            limit: registrationLimit, shared: rateBuckets.map { (name: "registrations", store: $0) })
    }

    struct Logs: Decodable {
        let logs: [String]
    }

    struct Personalization: Decodable {
        let personalizationToken: String
        let requiredPersonalizationInfo: [String: String]?
    }

    func addRoutes(to group: RouterGroup<WalletRequestContext>) {
        DeviceRegistrationRoutes(registrations: service.registrations, webService: self).addRoutes(to: group)
        group.get("v1/passes/:passType/:serial", use: latestPass)
        group.post("v1/passes/:passType/:serial/personalize", use: personalize)
        group.post("v1/log", use: log)
    }

    @Sendable func latestPass(request: Request, context: WalletRequestContext) async throws -> Response {
        let ifModifiedSince = request.headers[.ifModifiedSince].flatMap(HTTPDate.parse)
        let latest = try await run {
            try await service.latestPass(
                passTypeIdentifier: try Self.parameter("passType", context),
                serialNumber: try Self.parameter("serial", context), authorization: request.headers[.authorization],
                ifModifiedSince: ifModifiedSince)
        }
        switch latest {
        case .notModified(let lastModified):
            return Response(status: .notModified, headers: [.lastModified: HTTPDate.format(lastModified)])
        case .pass(let pkpass, let lastModified):
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/vnd.apple.pkpass", .lastModified: HTTPDate.format(lastModified),
                    .cacheControl: "no-store",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: pkpass)))
        }
    }

    @Sendable func personalize(request: Request, context: WalletRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(Personalization.self, from: request, limit: 16 * 1024)
        let signature = try await run {
            try await service.personalize(
                passTypeIdentifier: try Self.parameter("passType", context),
                serialNumber: try Self.parameter("serial", context),
                personalizationToken: body.personalizationToken, details: body.requiredPersonalizationInfo ?? [:],
                authorization: request.headers[.authorization])
        }
        return Response(
            status: .ok, headers: [.contentType: "application/octet-stream"],
            body: .init(byteBuffer: ByteBuffer(bytes: signature)))
    }

    @Sendable func log(request: Request, context: WalletRequestContext) async throws -> Response {
        try await limit(request, context, with: logLimiter, what: "log requests")
        let body = try await JSONBody.decode(Logs.self, from: request, limit: 128 * 1024)
        try await run { try await service.log(body.logs) }
        return Response(status: .ok)
    }

    /// Counts the request against its client address's budget in `limiter`; throws `429` with `Retry-After` when
    /// that budget is spent.
    func limit(
        _ request: Request, _ context: WalletRequestContext, with limiter: RateLimiter<String>, what: String
    ) async throws {
        let address = clientAddress.limiterKey(of: request, context: context)
        guard case .limited(let wait) = await limiter.acquireAcrossReplicas(for: address) else {
            return
        }
        let seconds = ProvisioningController.wholeSeconds(wait)
        throw APIError(
            .tooManyRequests, code: "rate_limited",
            message: "too many \(what) from this address; try again in \(seconds) s",
            headers: [.retryAfter: String(seconds)])
    }

    /// A path parameter, percent-decoded (through Foundation only when it has a `%`: the decoding costs 5 % of a
    /// fetch's cycles otherwise).
    static func parameter(_ name: String, _ context: WalletRequestContext) throws -> String {
        guard let raw = context.parameters.get(name),
            let value = raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding : String(raw)
        else { throw APIError.badRequest("the path's \(name) is not valid") }
        return value
    }

    /// The answer to a request without the token it needs.
    static let noToken = APIError(.unauthorized, code: "unauthorized", message: "no pass or order with this token")

    /// Runs `body`, turning the service's refusals into HTTP answers.
    func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let failure as WebServiceFailure {
            switch failure {
            case .unauthorized:
                throw Self.noToken
            case .notFound(let message): throw APIError.notFound(message)
            case .invalidRequest(let message): throw APIError.badRequest(message)
            case .rateLimited(let wait):
                let seconds = ProvisioningController.wholeSeconds(wait)
                throw APIError(
                    .tooManyRequests, code: "rate_limited",
                    message: "signed as often as it may be for now; try again in \(seconds) s",
                    headers: [.retryAfter: String(seconds)])
            case .tooManyDevices(let limit):
                throw APIError(
                    .forbidden, code: "too_many_devices",
                    message: "it is registered on \(limit) devices, the most it may be; unregister one first")
            }
        }
    }
}
