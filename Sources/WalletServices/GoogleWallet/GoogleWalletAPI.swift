import WalletGoogle

/// What writes passes to Google Wallet for the outbox: the server's `GoogleWalletClient`, or a stand-in's client.
package protocol GoogleWalletAPI: Sendable {
    /// The endpoints and limits it works with.
    var configuration: GoogleWalletConfiguration { get }
    /// Makes `walletClass` exist with exactly this content, signed in as `account`: replaced first when it `exists`
    /// (inserted when Google does not know it), inserted first otherwise (and, when one exists already, read and
    /// replaced unless it holds the same).
    func saveClass(_ walletClass: GoogleWalletClass, exists: Bool, as account: GoogleServiceAccount) async
        -> GoogleWalletOutcome
    /// Makes `object` exist with exactly this content, its messages included: replaced, or inserted when Google does
    /// not know it; its class must exist (a retry when it does not yet).
    func saveObject(_ object: GoogleWalletObject, as account: GoogleServiceAccount) async -> GoogleWalletOutcome
    /// Sets the object `objectID` of `type` `INACTIVE` with `messages` (a pass that got a new object); an object
    /// Google does not know is done.
    func retire(
        _ objectID: String, of type: GoogleWalletType, messages: [GoogleWallet.Message],
        as account: GoogleServiceAccount
    ) async -> GoogleWalletOutcome
    /// Closes its connections.
    func shutdown() async throws
}

/// What became of one write to Google Wallet.
package enum GoogleWalletOutcome: Sendable, Hashable {
    /// Google took it.
    case done
    /// It may succeed later (no answer, 429, 5xx), not before `after` seconds when Google said so.
    case retry(after: Double?, reason: String)
    /// Google refused it with `status` and its error's name (`INVALID_ARGUMENT`): 401 and 403 refuse the service
    /// account, which an operator can fix; other statuses the content. `detail` is Google's message, which may
    /// quote the pass: it goes in the pass's trace, never in logs.
    case refused(status: Int, reason: String, detail: String?)
}
