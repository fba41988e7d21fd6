import Foundation
import Hummingbird
import WalletServices

/// Reads the API token from `Authorization: Basic base64(token + ":")`.
///
/// Written here rather than taken from HummingbirdAuth because its parser rejects an empty password, which is
/// exactly what API clients send (`token:`).
enum BasicCredentials {
    /// The user name of a Basic `Authorization` header, or `nil` when there is none or it is malformed.
    static func userName(from headers: HTTPFields) -> String? {
        guard let header = headers[.authorization], header.count <= 4096 else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8)
        else { return nil }
        let user = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
        return user?.isEmpty == false ? user : nil
    }

    /// The active API user whose token the request's Basic credentials carry.
    ///
    /// - Throws: ``APIError/unauthorized`` when there are no credentials or the token is unknown or revoked.
    static func apiUser(of request: Request, in repository: any APITokenStore) async throws -> APIUser {
        guard let token = userName(from: request.headers), let apiUser = try await repository.apiUser(token: token)
        else { throw APIError.unauthorized }
        return apiUser
    }

    /// The client of the request's API user; for a request that `costs` a signature or deliveries, counted against
    /// the API user's change budget in `limiter` (`RateLimit/passChanges`).
    ///
    /// - Throws: ``APIError/unauthorized`` without a valid token; ``APIError/rateLimited(retryAfter:)`` once the API
    ///   user spent its budget.
    static func client(of request: Request, in repository: any APITokenStore, costs: Bool, limiter: RateLimiter<UUID>)
        async throws -> UUID
    {
        let apiUser = try await apiUser(of: request, in: repository)
        if costs, case .limited(let wait) = await limiter.acquireAcrossReplicas(for: apiUser.id) {
            throw APIError.rateLimited(retryAfter: ProvisioningController.wholeSeconds(wait))
        }
        return apiUser.clientID
    }
}
