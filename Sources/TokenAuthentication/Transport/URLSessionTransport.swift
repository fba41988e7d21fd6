import Foundation
import HTTPTypes
import HTTPTypesFoundation
import Secrets

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport`` over `URLSession` (FoundationNetworking on Linux), with a timeout per request.
///
/// Token endpoints answer a refused client with 401 and a `WWW-Authenticate` challenge (RFC 6749 §5.2). The
/// transport never answers such a challenge (the client's credentials are already in the request); on Linux,
/// leaving it to the default handling leaves the task hanging past its timeout. It follows no redirect either: the
/// 3xx answer comes back as it is.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let decliner = ChallengeDecliner()
    private let timeout: TimeInterval

    /// A transport with its own ephemeral session; each request may take `timeout` seconds.
    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.urlCache = nil
        self.session = URLSession(configuration: configuration, delegate: decliner, delegateQueue: nil)
        self.timeout = timeout
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request`; a declined authentication challenge comes back as a 401 with an empty body. Cancelling
    /// the calling task cancels the request.
    public func send(_ request: HTTPRequest, body: Data) async throws -> (HTTPResponse, Data) {
        guard var urlRequest = URLRequest(httpRequest: request) else { throw URLError(.badURL) }
        urlRequest.timeoutInterval = timeout
        urlRequest.httpBody = body
        let running = Locked<URLSessionDataTask?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let decliner = decliner
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    let challenged = running.withLock { $0 }.map { decliner.takeChallenge(of: $0.taskIdentifier) }
                    continuation.resume(with: Self.outcome(data, response, error, challenged: challenged ?? false))
                }
                running.withLock { $0 = task }
                task.resume()
            }
        } onCancel: {
            // Cancel outside the lock: the task may call its completion handler, which takes the lock, at once.
            running.withLock { $0 }?.cancel()
        }
    }

    /// The result of a finished data task.
    private static func outcome(
        _ data: Data?, _ response: URLResponse?, _ error: (any Error)?, challenged: Bool
    ) -> Result<(HTTPResponse, Data), any Error> {
        if let error {
            // A declined challenge ends the task as cancelled (Linux) or as a cancelled authentication (Apple).
            if challenged, let error = error as? URLError,
                [.cancelled, .userCancelledAuthentication].contains(error.code)
            {
                return .success((HTTPResponse(status: .unauthorized), Data()))
            }
            return .failure(error)
        }
        guard let http = (response as? HTTPURLResponse)?.httpResponse else {
            return .failure(URLError(.badServerResponse))
        }
        return .success((http, data ?? Data()))
    }

    /// Declines HTTP authentication challenges, remembering which tasks had one; server-trust and
    /// client-certificate challenges keep their default handling.
    private final class ChallengeDecliner: NSObject, URLSessionTaskDelegate, Sendable {
        private static let httpMethods: Set<String> = [
            NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
            NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
        ]
        private let challenged = Locked(Set<Int>())

        /// Whether the task met a challenge; forgets it.
        func takeChallenge(of taskIdentifier: Int) -> Bool {
            challenged.withLock { $0.remove(taskIdentifier) != nil }
        }

        /// Refuses every redirect: the task completes with the 3xx answer itself. Following one would resend the
        /// request (client secret, refresh token) to wherever `Location` points.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            guard Self.httpMethods.contains(challenge.protectionSpace.authenticationMethod) else {
                completionHandler(.performDefaultHandling, nil)
                return
            }
            challenged.withLock { _ = $0.insert(task.taskIdentifier) }
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    }
}
