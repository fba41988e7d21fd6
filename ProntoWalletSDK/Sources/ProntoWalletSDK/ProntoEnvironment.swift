import Foundation

/// The Pronto server an app talks to.
///
/// ```swift
/// .production                          // https://app.prontocx.com
/// .development(host: "localhost:8080") // http://localhost:8080, a server on your machine (`coffer serve`)
/// .custom(URL(string: "https://wallet.example.com")!)
/// ```
public enum ProntoEnvironment: Hashable, Sendable {
    /// `https://app.prontocx.com`.
    case production
    /// `https://app.stage.prontocx.com`.
    case staging
    /// `https://app.demo.prontocx.com`.
    case demo
    /// `http://<host>`: a development server, such as `coffer serve` on `localhost:8080`.
    case development(host: String)
    /// Any server, at the URL given (a path, if any, is kept as a prefix of the API's paths).
    case custom(URL)

    /// The URL every API path is resolved against, or `nil` when a development host is not a valid host (with an
    /// optional port).
    public var baseURL: URL? {
        switch self {
        case .production: return URL(string: "https://app.prontocx.com")
        case .staging: return URL(string: "https://app.stage.prontocx.com")
        case .demo: return URL(string: "https://app.demo.prontocx.com")
        case .development(let host):
            guard let url = URL(string: "http://\(host)"), let parsedHost = url.host, !parsedHost.isEmpty,
                url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
            else { return nil }
            return url
        case .custom(let url):
            return url
        }
    }
}
