/// Finds the API user a request's token names: how every authenticated route starts.
package protocol APITokenStore: Sendable {
    /// The active (not revoked) API user whose token this is.
    func apiUser(token: String) async throws -> APIUser?
}
