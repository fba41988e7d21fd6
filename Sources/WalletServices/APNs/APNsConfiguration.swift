import Foundation
import NIOSSL
import WalletDocuments

/// How the server reaches Apple Push Notification service to tell devices that a pass changed.
///
/// The default pushes to the production gateway with each pass type's own certificate (TLS client authentication
/// with its `WalletPasses/SigningIdentity`), 32 pushes in flight at most. Token authentication
/// (``Authentication/token(_:)``) signs requests with one `.p8` key for the whole team instead.
public struct APNsConfiguration: Sendable, CustomStringConvertible {
    /// Where pushes go.
    public enum Gateway: Sendable, Hashable, CustomStringConvertible {
        /// `https://api.push.apple.com`: devices with passes from the App Store's Wallet (every real device).
        case production
        /// `https://api.sandbox.push.apple.com`: Apple's development environment.
        case sandbox
        /// Another https URL (a test stand-in).
        case custom(URL)

        /// The gateway's base URL.
        public var url: URL {
            switch self {
            case .production: return URL(string: "https://api.push.apple.com")!
            case .sandbox: return URL(string: "https://api.sandbox.push.apple.com")!
            case .custom(let url): return url
            }
        }

        /// `production`, `sandbox`, or the custom URL.
        public var description: String {
            switch self {
            case .production: return "production"
            case .sandbox: return "sandbox"
            case .custom(let url): return url.absoluteString
            }
        }

        /// Parses `production` or `sandbox` (any case), naming `source` when it is neither.
        public static func named(_ text: String, from source: String) throws -> Gateway {
            switch text.lowercased() {
            case "production": return .production
            case "sandbox", "development": return .sandbox
            default: throw WalletServerError.invalidConfiguration("\(source) must be production or sandbox")
            }
        }
    }

    /// How requests prove they come from the pass types' owner.
    public enum Authentication: Sendable, CustomStringConvertible {
        /// TLS client authentication with the certificate and key of the pass type each push is for.
        case certificate
        /// A provider token (ES256 JWT) signed by the team's APNs key, on every request.
        case token(APNsSigningKey)

        /// `certificate`, or the key's ID and team; never the key.
        public var description: String {
            switch self {
            case .certificate: return "certificate"
            case .token(let key): return "token (\(key))"
            }
        }
    }

    /// Where pushes go.
    public var gateway: Gateway
    /// How requests are authenticated.
    public var authentication: Authentication
    /// The most pushes sent at once (HTTP/2 streams over one connection per identity).
    public var maximumInFlight: Int
    /// Seconds a push may take, from sending to Apple's answer, before it counts as failed (and is retried).
    public var requestTimeout: TimeInterval
    /// Certificates trusted beside the system's roots for the gateway's TLS certificate (a test stand-in's CA).
    public var additionalTrustRoots: [NIOSSLCertificate]

    /// Creates a configuration; every argument has the default described on the type.
    public init(
        gateway: Gateway = .production, authentication: Authentication = .certificate, maximumInFlight: Int = 32,
        requestTimeout: TimeInterval = 30, additionalTrustRoots: [NIOSSLCertificate] = []
    ) {
        self.gateway = gateway
        self.authentication = authentication
        self.maximumInFlight = maximumInFlight
        self.requestTimeout = requestTimeout
        self.additionalTrustRoots = additionalTrustRoots
    }

    /// Checks the settings: an https gateway with a host, 1 to 1000 pushes in flight, a timeout from 1 second to
    /// 10 minutes.
    ///
    /// - Throws: ``APNsError/invalidGateway(_:)`` or ``WalletServerError/invalidConfiguration(_:)``.
    public func validate() throws {
        let url = gateway.url
        guard url.scheme?.lowercased() == "https", let host = url.host, !host.isEmpty else {
            throw APNsError.invalidGateway(url.absoluteString)
        }
        guard (1...1000).contains(maximumInFlight) else {
            throw WalletServerError.invalidConfiguration("the most APNs pushes in flight must be from 1 to 1000")
        }
        guard requestTimeout.isFinite, (1...600).contains(requestTimeout) else {
            throw WalletServerError.invalidConfiguration("the APNs request timeout must be from 1 to 600 seconds")
        }
    }

    /// The gateway, authentication, limits; never a key.
    public var description: String {
        "APNsConfiguration(gateway: \(gateway), authentication: \(authentication), in flight: \(maximumInFlight), "
            + "timeout: \(requestTimeout) s)"
    }
}
