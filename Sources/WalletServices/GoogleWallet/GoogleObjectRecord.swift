import Foundation
import WalletGoogle

/// What the server knows of a pass's Google Wallet object: its identifier (the pass's alone, kept from when it was
/// first handed out), what was last written to it, the object it replaced, and what Google's callbacks said.
package struct GoogleObjectRecord: Sendable, Hashable {
    /// The pass.
    package var passID: UUID
    /// The object's identifier (`<issuer id>.<suffix>`), unique among passes.
    package var objectID: String
    /// How many times the pass's object was replaced by a new one (its token was rotated).
    package var generation: Int
    /// Its class's identifier, once written.
    package var classID: String?
    /// The pass's update tag the object was last written at, or `nil` when it was never written.
    package var writtenUpdateTag: Int64?
    /// The SHA-256 (hex) of the object's JSON as last written.
    package var writtenDigest: String?
    /// When it was last written.
    package var writtenAt: Date?
    /// The object this one replaced, still to be set `INACTIVE`.
    package var retiredObjectID: String?
    /// The messages on the object, newest last (at most ``maximumMessages``): every write carries them.
    package var messages: [GoogleWallet.Message]
    /// When a holder last saved it to Google Wallet, if a callback said so.
    package var savedAt: Date?
    /// When a holder last removed it, if a callback said so.
    package var removedAt: Date?

    /// The most messages an object holds: Google rejects more
    /// ([reference](https://developers.google.com/wallet/reference/rest/v1/genericobject)).
    package static let maximumMessages = 10

    /// Creates a record.
    package init(
        passID: UUID, objectID: String, generation: Int = 0, classID: String? = nil, writtenUpdateTag: Int64? = nil,
        writtenDigest: String? = nil, writtenAt: Date? = nil, retiredObjectID: String? = nil,
        messages: [GoogleWallet.Message] = [], savedAt: Date? = nil, removedAt: Date? = nil
    ) {
        self.passID = passID
        self.objectID = objectID
        self.generation = generation
        self.classID = classID
        self.writtenUpdateTag = writtenUpdateTag
        self.writtenDigest = writtenDigest
        self.writtenAt = writtenAt
        self.retiredObjectID = retiredObjectID
        self.messages = messages
        self.savedAt = savedAt
        self.removedAt = removedAt
    }
}
