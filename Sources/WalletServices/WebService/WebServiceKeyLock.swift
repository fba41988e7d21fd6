/// The lock under which the web service's server key is read or made, shared by every server on one database
/// (``PassAuthenticationTokens/load(from:lockingWith:)``).
package protocol WebServiceKeyLock: Sendable {
    /// Runs `body` while no other server can, handing it a check of whether any pass already carries a token.
    func withWebServiceKeyLock<Result: Sendable>(
        _ body:
            @escaping @Sendable (_ passesCarryTokens: @escaping @Sendable () async throws -> Bool) async throws
            -> Result
    ) async throws -> Result
}
