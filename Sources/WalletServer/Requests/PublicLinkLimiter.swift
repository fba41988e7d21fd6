import Crypto
import Foundation
import Hummingbird
import Secrets
import WalletServices

/// The budgets of the public pages a link opens (landing links, share links): one per client address, whatever the
/// token, and one per well-formed token, so neither guessing tokens from one address nor hammering one link from many
/// goes far.
struct PublicLinkLimiter: Sendable {
    /// A token's page views and downloads: 20 a minute, 10 at once (a person taps a few times at most).
    static let tokenLimit = RateLimit(perMinute: 20, burst: 10)
    /// A client address's page views and downloads, over every token: 60 a minute, 30 at once.
    static let addressLimit = RateLimit(perMinute: 60, burst: 30)

    private let tokens: RateLimiter<SHA256Digest>
    private let addresses: RateLimiter<String>
    private let clientAddress: ClientAddress

    /// Creates the budgets.
    init(
        clientAddress: ClientAddress, tokenLimit: RateLimit = Self.tokenLimit,
        addressLimit: RateLimit = Self.addressLimit, clock: any CofferClock = SystemClock()
    ) {
        self.clientAddress = clientAddress
        tokens = RateLimiter<SHA256Digest>(limit: tokenLimit, clock: clock)
        addresses = RateLimiter<String>(limit: addressLimit, clock: clock)
    }

    /// Counts the request against its client address and its token; the whole seconds to wait when either is
    /// spent, `nil` when it may go ahead. A malformed token reaches no row: only well-formed ones get (and fill) a
    /// bucket of their own.
    func wait(for request: Request, context: WalletRequestContext, token: String) -> Int? {
        let address = clientAddress.limiterKey(of: request, context: context)
        if case .limited(let wait) = addresses.acquire(for: address) {
            return ProvisioningController.wholeSeconds(wait)
        }
        guard WebLinkService.isWellFormed(token: token) else { return nil }
        if case .limited(let wait) = tokens.acquire(for: SHA256.hash(data: Data(token.utf8))) {
            return ProvisioningController.wholeSeconds(wait)
        }
        return nil
    }
}
