import Foundation
import WalletGoogle

/// What the server knows of a Google Wallet class every replica shares: what it was last given, from which change,
/// its messages and notifications, and whether Google took it.
package struct GoogleClassRecord: Sendable, Hashable {
    /// The class's identifier.
    package var classID: String
    /// The SHA-256 (hex) of the class's JSON, its messages included, as last given.
    package var digest: String
    /// The update tag of the pass whose change gave it that content: an older change never replaces it.
    package var sourceUpdateTag: Int64
    /// Its messages, newest last (at most ``GoogleObjectRecord/maximumMessages``).
    package var messages: [GoogleWallet.Message]
    /// When its messages notified holders, within the last day.
    package var notifiedAt: [Date]
    /// Whether Google took the class with this digest.
    package var confirmed: Bool

    /// Creates a record.
    package init(
        classID: String, digest: String, sourceUpdateTag: Int64, messages: [GoogleWallet.Message] = [],
        notifiedAt: [Date] = [], confirmed: Bool = false
    ) {
        self.classID = classID
        self.digest = digest
        self.sourceUpdateTag = sourceUpdateTag
        self.messages = messages
        self.notifiedAt = notifiedAt
        self.confirmed = confirmed
    }
}
