import Foundation

/// How the server reaches Google Wallet: the `walletobjects` API, the OAuth token endpoint its service accounts
/// sign in at, and where the keys that sign save and delete callbacks are published. The defaults are Google's own;
/// tests point them at `GoogleWalletStandIn`.
public struct GoogleWalletConfiguration: Sendable, Hashable {
    /// The API's base: `https://walletobjects.googleapis.com/walletobjects/v1`.
    public var apiURL: URL
    /// Where access tokens are asked for: `https://oauth2.googleapis.com/token`.
    public var tokenURL: URL
    /// Where Google publishes the root keys of its callbacks: `https://pay.google.com/gp/m/issuer/keys`.
    public var callbackKeysURL: URL
    /// The sender that signs callbacks: `GooglePayPasses`.
    public var callbackSenderID: String
    /// How long one call may take, the answer's body included.
    public var requestTimeout: TimeInterval
    /// How many objects are written at once, on each replica.
    public var maximumInFlight: Int
    /// How many calls each service account may make a second, on every replica together: Google allows 20
    /// ([FAQ](https://developers.google.com/wallet/generic/resources/faq)). Calls are spaced as if a second lasted
    /// 1.05 s, so that one arriving up to 50 ms late never makes a second hold one call too many.
    public var requestsPerSecond: Int

    /// Google's endpoints, 15 s a call, 8 writes at once and 20 calls a second per account, unless given.
    public init(
        apiURL: URL = URL(string: "https://walletobjects.googleapis.com/walletobjects/v1")!,
        tokenURL: URL = URL(string: "https://oauth2.googleapis.com/token")!,
        callbackKeysURL: URL = URL(string: "https://pay.google.com/gp/m/issuer/keys")!,
        callbackSenderID: String = "GooglePayPasses", requestTimeout: TimeInterval = 15, maximumInFlight: Int = 8,
        requestsPerSecond: Int = 20
    ) {
        self.requestsPerSecond = max(1, requestsPerSecond)
        self.apiURL = apiURL
        self.tokenURL = tokenURL
        self.callbackKeysURL = callbackKeysURL
        self.callbackSenderID = callbackSenderID
        self.requestTimeout = requestTimeout
        self.maximumInFlight = max(1, maximumInFlight)
    }

    /// Google's endpoints replaced by a stand-in's under `base` (`/walletobjects/v1`, `/token`, `/keys`), as
    /// `GoogleWalletStandIn` serves them: tests and local development only.
    public static func standIn(at base: URL, requestTimeout: TimeInterval = 5) -> GoogleWalletConfiguration {
        GoogleWalletConfiguration(
            apiURL: base.appendingPathComponent("walletobjects/v1"), tokenURL: base.appendingPathComponent("token"),
            callbackKeysURL: base.appendingPathComponent("keys"), requestTimeout: requestTimeout)
    }
}
