import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The URL session's delegate: declines HTTP authentication challenges and remembers which requests had one.
///
/// The SDK sends its credentials in the `Authorization` header of every request, so a 401 that carries
/// `WWW-Authenticate` means the key was refused, and there is nothing better to answer the challenge with. On
/// Linux, leaving the challenge to the default handling leaves the task hanging past its timeout
/// (swift-corelibs-foundation #5456); declining it ends the task at once, on every platform, and the client then
/// reports ``ProvisioningError/notAuthorized``. Server-trust and client-certificate challenges keep their default
/// handling.
final class AuthenticationChallengeDecliner: NSObject, URLSessionTaskDelegate, Sendable {
    /// The request header that tells requests apart (also useful to find a request in the server's logs).
    static let requestIDHeader = "X-Request-ID"

    private static let httpAuthenticationMethods: Set<String> = [
        NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
        NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
    ]

    private let challenged = Protected(Set<String>())

    /// Whether the request with this ID met an authentication challenge; forgets the ID.
    func takeChallenge(requestID: String) -> Bool {
        challenged.withLock { $0.remove(requestID) != nil }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard Self.httpAuthenticationMethods.contains(challenge.protectionSpace.authenticationMethod) else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        if let requestID = task.originalRequest?.value(forHTTPHeaderField: Self.requestIDHeader) {
            challenged.withLock { _ = $0.insert(requestID) }
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}
