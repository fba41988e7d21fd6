import Foundation
import WalletPasses

/// What the server knows of a pass's Google Wallet object: what it last wrote, and what Google's callbacks said.
package struct GoogleObjectRecord: Sendable, Hashable {
    /// The pass.
    package var passID: UUID
    /// The object's identifier (`<issuer id>.<suffix>`).
    package var objectID: String
    /// Its class's identifier.
    package var classID: String
    /// The pass's update tag the object was last written at.
    package var writtenUpdateTag: Int64
    /// When it was last written.
    package var writtenAt: Date
    /// The messages added to it, newest last (at most ``maximumMessages``): every write carries them, so that
    /// replacing the object keeps them.
    package var messages: [GoogleWallet.Message]
    /// When a holder last saved it to Google Wallet, if a callback said so.
    package var savedAt: Date?
    /// When a holder last removed it, if a callback said so.
    package var removedAt: Date?

    /// The most messages kept on an object (Google shows 10).
    package static let maximumMessages = 10

    /// Creates a record.
    package init(
        passID: UUID, objectID: String, classID: String, writtenUpdateTag: Int64, writtenAt: Date,
        messages: [GoogleWallet.Message] = [], savedAt: Date? = nil, removedAt: Date? = nil
    ) {
        self.passID = passID
        self.objectID = objectID
        self.classID = classID
        self.writtenUpdateTag = writtenUpdateTag
        self.writtenAt = writtenAt
        self.messages = messages
        self.savedAt = savedAt
        self.removedAt = removedAt
    }
}
