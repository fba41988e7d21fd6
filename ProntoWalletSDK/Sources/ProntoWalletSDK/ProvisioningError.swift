import Foundation

/// Why adding a pass did not happen. Each case is one thing an app can react to.
///
/// A user who dismisses the Wallet sheet is not an error: the delegate hears
/// ``ProvisioningDelegate/provisioningDidCancel()`` and the async API returns ``ProvisioningResult/cancelled``.
public enum ProvisioningError: Error, Sendable {
    /// ``ProntoWallet/configure(with:)`` has not been called.
    case notConfigured
    /// The device cannot add passes to Apple Wallet (or the OS is older than iOS 16.4).
    case walletNotAvailable
    /// The request did not complete: no connection, the server unreachable, a timeout (`URLError`), or a
    /// development host that is not a valid host (`URLError.badURL`).
    case networkError(any Error)
    /// The server answered with an error status other than 401, 403, 404 and 429; `message` is the server's own,
    /// when its answer had one.
    case serverError(statusCode: Int, message: String?)
    /// The server's answer could not be read: not JSON, fields missing, or issuer data or a signature that is not
    /// base64.
    case invalidResponse
    /// PassKit refused the issuer data or failed to present the Wallet sheet.
    case passKitError(any Error)
    /// The API key was refused (HTTP 401 or 403): a wrong, revoked or mistyped key.
    case notAuthorized
    /// No pass was found for the tag (HTTP 404): a wrong tag ID or ID attribute, a tag of another client, or a tag
    /// with no pass yet.
    case notFound
    /// The server is limiting how often this API key may ask for passes (HTTP 429). `retryAfter` is how many
    /// seconds it asked the app to wait (its `Retry-After` header), when it said.
    case rateLimited(retryAfter: TimeInterval?)
}

extension ProvisioningError: LocalizedError {
    /// A sentence that says what went wrong and what to do.
    public var errorDescription: String? {
        switch self {
        case .notConfigured:
            return "ProntoWallet is not configured: call ProntoWallet.shared.configure(with:) with your API key first."
        case .walletNotAvailable:
            return "Apple Wallet is not available on this device, so the pass cannot be added."
        case .networkError(let error):
            return "The Pronto server could not be reached: \(Self.describe(error))"
        case .serverError(let statusCode, let message):
            let detail = message.map { ": \($0)" } ?? "."
            return "The Pronto server answered with an error (HTTP \(statusCode))\(detail)"
        case .invalidResponse:
            return "The Pronto server's answer could not be read; try again later or contact the pass issuer."
        case .passKitError(let error):
            return "Apple Wallet could not add the pass: \(Self.describe(error))"
        case .notAuthorized:
            return "The Pronto API key was refused: check the key the app is configured with."
        case .notFound:
            return "No pass was found for this tag: check the tag ID and which ID attribute it is."
        case .rateLimited(let retryAfter):
            let wait = retryAfter.map { "in \(Int($0.rounded(.up))) seconds" } ?? "in a moment"
            return "The Pronto server is receiving too many requests for this app; try again \(wait)."
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut: return "the request timed out."
            case .cannotConnectToHost: return "the connection was refused."
            case .notConnectedToInternet: return "the device is offline."
            case .badURL: return "the server address is not valid."
            default: break
            }
        }
        return error.localizedDescription
    }
}
