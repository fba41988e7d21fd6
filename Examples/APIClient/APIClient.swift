import Foundation
import TokenAuthentication

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client of an API that takes OAuth 2.0 bearer tokens: every request carries the authenticator's current
/// token, and a 401 from the API (a token revoked early) gets one retry with a fresh token.
struct APIClient: Sendable {
    let baseURL: URL
    let authenticator: PublicRequestAuthenticator
    let session: URLSession

    /// GETs `path` and returns the status and body.
    func get(_ path: String) async throws -> (status: Int, body: Data) {
        let first = try await send(path)
        guard first.status == 401 else { return first }
        await authenticator.invalidate()
        return try await send(path)
    }

    private func send(_ path: String) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: baseURL.appending(path: path))
        request.setValue("Bearer \(try await authenticator.accessToken())", forHTTPHeaderField: "Authorization")
        let (body, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
    }
}
