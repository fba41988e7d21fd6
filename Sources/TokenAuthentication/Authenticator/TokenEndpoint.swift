import Foundation
import HTTPTypes
import HTTPTypesFoundation
import Secrets

/// An OAuth 2.0 token endpoint (RFC 6749 §3.2) and how to talk to it.
public struct TokenEndpoint: Sendable, Hashable {
    /// How the client proves who it is (RFC 6749 §2.3.1).
    public enum ClientAuthentication: String, Sendable, Hashable {
        /// HTTP Basic with the form-encoded client ID and secret: what every server must support.
        case basic
        /// `client_id` and `client_secret` in the request body.
        case requestBody
    }

    /// The endpoint's URL (HTTPS in production; RFC 6749 §3.2 requires TLS).
    public var url: URL
    /// How the client authenticates (for credentials that have a client secret).
    public var clientAuthentication: ClientAuthentication
    /// The grant type an ``OAuthCredential/Grant/apiKey`` credential is sent with (an extension grant,
    /// RFC 6749 §4.5). The default is IBM Cloud IAM's.
    public var apiKeyGrantType: String
    /// The form parameter the API key goes in.
    public var apiKeyParameter: String
    /// Extra form parameters sent with every request (`audience`, `resource`…).
    public var additionalParameters: [String: String]

    /// Checks that the endpoint is reached over TLS (RFC 6749 §3.2): `https`, or plain http to this machine
    /// (`localhost`, `127.0.0.0/8`, `::1`) for development and tests.
    ///
    /// - Throws: ``TokenAuthenticationError/insecureEndpoint(_:)`` before any secret is sent.
    public func checkTransportSecurity() throws(TokenAuthenticationError) {
        guard url.scheme?.lowercased() != "https" else { return }
        guard url.scheme?.lowercased() == "http", NetworkHost.isLoopback(url.host ?? "") else {
            throw .insecureEndpoint(url.absoluteString)
        }
    }

    /// Describes an endpoint.
    public init(
        url: URL, clientAuthentication: ClientAuthentication = .basic,
        apiKeyGrantType: String = "urn:ibm:params:oauth:grant-type:apikey", apiKeyParameter: String = "apikey",
        additionalParameters: [String: String] = [:]
    ) {
        self.url = url
        self.clientAuthentication = clientAuthentication
        self.apiKeyGrantType = apiKeyGrantType
        self.apiKeyParameter = apiKeyParameter
        self.additionalParameters = additionalParameters
    }

    /// The token request for `credential` and its body: a form-encoded POST (RFC 6749 §4.4.2, §6).
    func request(for credential: OAuthCredential) -> (HTTPRequest, Data) {
        var form: [(String, String)] = []
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .accept: "application/json"]
        switch credential.grant {
        case .clientCredentials:
            form.append(("grant_type", "client_credentials"))
        case .refreshToken:
            form.append(("grant_type", "refresh_token"))
            form.append(("refresh_token", credential.refreshToken ?? ""))
        case .apiKey:
            form.append(("grant_type", apiKeyGrantType))
            form.append((apiKeyParameter, credential.apiKey ?? ""))
        }
        if let scope = credential.scope, !scope.isEmpty { form.append(("scope", scope)) }
        if let clientID = credential.clientID {
            if let secret = credential.clientSecret, clientAuthentication == .basic {
                let pair = "\(FormEncoding.encode(clientID)):\(FormEncoding.encode(secret))"
                headers[.authorization] = "Basic " + Data(pair.utf8).base64EncodedString()
            } else {
                form.append(("client_id", clientID))
                if let secret = credential.clientSecret { form.append(("client_secret", secret)) }
            }
        }
        form += additionalParameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return (HTTPRequest(method: .post, url: url, headerFields: headers), FormEncoding.body(form))
    }
}

/// `application/x-www-form-urlencoded`, as RFC 6749 Appendix B asks.
enum FormEncoding {
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._*".utf8)

    /// A value with every byte but letters, digits and `-._*` percent-encoded, and spaces as `+`.
    static func encode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                encoded.append(Character(Unicode.Scalar(byte)))
            } else if byte == UInt8(ascii: " ") {
                encoded.append("+")
            } else {
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }

    /// The body of a form.
    static func body(_ fields: [(String, String)]) -> Data {
        Data(fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&").utf8)
    }
}
