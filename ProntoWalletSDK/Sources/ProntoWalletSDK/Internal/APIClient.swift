import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Calls the Pronto API: `POST /api/v2/in_app_provisioning/issuer_data` with HTTP Basic authentication
/// (`base64(apiKey + ":")`), JSON in and out, and maps every outcome to a ``ProvisioningError``.
///
/// One client owns one URL session; ``invalidate()`` releases it once the requests in flight are done.
final class APIClient: Sendable {
    /// The path of the issuer-data endpoint, relative to the environment's base URL.
    static let issuerDataPath = "api/v2/in_app_provisioning/issuer_data"

    let configuration: ProntoConfiguration
    private let session: URLSession
    private let challenges: AuthenticationChallengeDecliner

    /// Creates a client; `sessionConfiguration` is copied and given the configuration's timeout.
    init(configuration: ProntoConfiguration, sessionConfiguration: URLSessionConfiguration = .ephemeral) {
        self.configuration = configuration
        let settings = sessionConfiguration.copy() as! URLSessionConfiguration
        settings.timeoutIntervalForRequest = configuration.timeout
        settings.timeoutIntervalForResource = configuration.timeout
        settings.urlCache = nil
        settings.httpCookieStorage = nil
        settings.urlCredentialStorage = nil
        let challenges = AuthenticationChallengeDecliner()
        self.challenges = challenges
        self.session = URLSession(configuration: settings, delegate: challenges, delegateQueue: nil)
    }

    /// Lets the requests in flight finish, then releases the session.
    func invalidate() {
        session.finishTasksAndInvalidate()
    }

    /// Asks the server for signed issuer data for a tag.
    ///
    /// - Throws: ``ProvisioningError``, or `CancellationError` when the calling task is cancelled.
    func issuerData(tagId: String, idAttribute: TagIdAttribute) async throws -> IssuerData {
        let request = try makeRequest(tagId: tagId, idAttribute: idAttribute)
        let requestID = request.value(forHTTPHeaderField: AuthenticationChallengeDecliner.requestIDHeader) ?? ""
        let body: Data
        let response: URLResponse
        do {
            (body, response) = try await session.data(for: request)
        } catch {
            let challenged = challenges.takeChallenge(requestID: requestID)
            if Task.isCancelled { throw CancellationError() }
            if challenged { throw ProvisioningError.notAuthorized }
            throw ProvisioningError.networkError(error)
        }
        _ = challenges.takeChallenge(requestID: requestID)
        return try Self.issuerData(from: body, response: response)
    }

    /// The request: a JSON body `{"tag_id", "id_attribute"}`, Basic authentication, a fresh request ID.
    func makeRequest(tagId: String, idAttribute: TagIdAttribute) throws -> URLRequest {
        guard let base = configuration.environment.baseURL else {
            throw ProvisioningError.networkError(URLError(.badURL))
        }
        var request = URLRequest(url: base.appendingPathComponent(Self.issuerDataPath))
        request.httpMethod = "POST"
        request.timeoutInterval = configuration.timeout
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(
            "Basic " + Data((configuration.apiKey + ":").utf8).base64EncodedString(),
            forHTTPHeaderField: "Authorization")
        request.setValue(UUID().uuidString, forHTTPHeaderField: AuthenticationChallengeDecliner.requestIDHeader)
        let fields = ["tag_id": tagId, "id_attribute": idAttribute.rawValue]
        request.httpBody = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        return request
    }

    /// Maps the server's answer: 2xx with a readable body → issuer data; 401 and 403 → not authorized; 404 → not
    /// found; 429 → rate limited, with its `Retry-After` seconds; any other status → a server error with the
    /// server's message; anything unreadable → invalid response.
    static func issuerData(from body: Data, response: URLResponse) throws(ProvisioningError) -> IssuerData {
        guard let http = response as? HTTPURLResponse else { throw .invalidResponse }
        switch http.statusCode {
        case 200..<300:
            guard let decoded = try? JSONDecoder().decode(IssuerDataResponse.self, from: body),
                let issuerData = IssuerData(
                    tagId: decoded.tagId, base64IssuerData: decoded.issuerData, base64Signature: decoded.signature,
                    pass: decoded.pass)
            else { throw .invalidResponse }
            return issuerData
        case 401, 403:
            throw .notAuthorized
        case 404:
            throw .notFound
        case 429:
            throw .rateLimited(retryAfter: retryAfter(in: http))
        default:
            throw .serverError(statusCode: http.statusCode, message: ServerErrorMessage.message(in: body))
        }
    }

    /// The `Retry-After` header as seconds to wait: a whole number of seconds, or an HTTP date (RFC 9110 §10.2.3);
    /// `nil` when absent or unreadable.
    static func retryAfter(in response: HTTPURLResponse, now: Date = Date()) -> TimeInterval? {
        guard let value = response.value(forHTTPHeaderField: "Retry-After")?.trimmingCharacters(in: .whitespaces)
        else { return nil }
        if let seconds = UInt32(value) { return TimeInterval(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }
}
