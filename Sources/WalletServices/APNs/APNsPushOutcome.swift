import Foundation

/// What became of one push sent to APNs.
public enum APNsPushOutcome: Sendable, Hashable {
    /// APNs accepted it (200).
    case delivered
    /// The push token is no longer valid for the pass type (410 `Unregistered`, 400 `BadDeviceToken` or
    /// `DeviceTokenNotForTopic`, or a token that is not hex of a plausible length): the device's registration goes.
    case unregistered(reason: String)
    /// Worth sending again later (429, 5xx, a network error or timeout, an expired provider token): `after` is the
    /// wait APNs asked for with `Retry-After`, if it did.
    case retry(after: TimeInterval?, reason: String)
    /// APNs refused it for good (any other 4xx) with its `reason`, e.g. `TopicDisallowed`, `BadCertificate` or
    /// `InvalidProviderToken` (status 403 means the server's credentials, not the push, were refused; status 0 means
    /// nothing was sent because the server's credentials could not be used: no identity, or one unfit for TLS).
    case rejected(status: Int, reason: String)
}
