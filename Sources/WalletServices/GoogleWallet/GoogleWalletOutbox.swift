import Foundation
import WalletGoogle

/// The outbox's Google Wallet writes and what the server knows of each pass's object: changes queue writes in the
/// transaction that changes the pass (``PassChangeStore``), and `DeliveryDispatcher` claims, sends and records them.
///
/// `SQLWalletRepository` implements it (`push_outbox` rows of kind `google`, `google_objects`,
/// `google_notifications`), shared by replicas: a write is under one lease at a time, and a pass's writes go one
/// after the other.
package protocol GoogleWalletOutbox: Sendable {
    /// Leases and returns at most `limit` writes due at `now`, each the oldest of its pass while no other write of
    /// that pass is under a lease; clients (of the passes' tags) and pass types take turns, and none has more than
    /// `perClient` or `perPassType` writes under unexpired leases on every replica together.
    func claimDueGoogleWrites(now: Date, limit: Int, perClient: Int, perPassType: Int, leaseFor: TimeInterval)
        async throws -> [PendingGoogleWrite]
    /// Queues a write of the pass's object unless one is waiting unclaimed (which writes the pass as it is when
    /// sent), if its pass type has a Google issuer; returns whether a write is now waiting.
    @discardableResult func queueGoogleWrite(passID: UUID, now: Date) async throws -> Bool
    /// Deletes a sent write, if the claim still holds its lease, and records what it `wrote`, in one transaction.
    @discardableResult func completeGoogleWrite(_ write: PendingGoogleWrite, wrote: GoogleObjectWrite?) async throws
        -> Bool
    /// Schedules a write again at `at` with why it failed, if the claim still holds its lease.
    @discardableResult func retryGoogleWrite(_ write: PendingGoogleWrite, at: Date, error: String) async throws -> Bool
    /// Keeps a write as failed (never sent again), if the claim still holds its lease.
    @discardableResult func failGoogleWrite(_ write: PendingGoogleWrite, now: Date, error: String) async throws -> Bool
    /// The pass's object as last written, if it was.
    func googleObject(passID: UUID) async throws -> GoogleObjectRecord?
    /// Makes `objectID` the pass's object identifier unless another pass has it; returns whether the pass has it
    /// now. A new identifier starts unwritten, without messages.
    func reserveGoogleObject(passID: UUID, objectID: String) async throws -> Bool
    /// The class `classID` as last given, if it was.
    func googleClass(id classID: String) async throws -> GoogleClassRecord?
    /// Takes the writing of `record` (the class's new content, from the change `record.sourceUpdateTag`) until
    /// `until`, in one statement, when the class is new, or no writer holds it and its digest differs from a change
    /// no newer, or Google has not taken what it holds; any other writer of the class's passes leaves it alone
    /// meanwhile.
    func claimGoogleClassWrite(_ record: GoogleClassRecord, until: Date, now: Date) async throws -> GoogleClassClaim
    /// Records that Google took the class with `digest` (or, when not `written`, lets the next writer take it).
    func finishGoogleClassWrite(classID: String, digest: String, written: Bool, at: Date) async throws
    /// Keeps `images` (PNG bytes by their content name, `GooglePassConversion/imageName(of:)`) for Google to fetch.
    func keepGoogleImages(_ images: [String: Data], now: Date) async throws
    /// The image kept under `name`, if any.
    func googleImage(named name: String) async throws -> Data?
    /// Whether a pass type has the Google issuer `issuerID`.
    func hasGoogleIssuer(_ issuerID: String) async throws -> Bool
    /// Records a verified callback about the object `objectID` (`saved`, or removed) in one transaction: keeps its
    /// nonce until `expiresAt` (and drops some expired ones), unless it was kept before, and marks the pass's object
    /// record, queueing a write when the object was handed out but not written yet; nothing is kept for an object
    /// identifier the server never handed out.
    func recordGoogleCallback(nonce: String, expiresAt: Date, objectID: String, saved: Bool, now: Date) async throws
        -> GoogleCallbackRecording
    /// Counts a notification to the pass's holder at `now` if fewer than `limit` were counted in the `window`
    /// before; returns whether it did (and so whether the message may notify).
    func reserveGoogleNotification(passID: UUID, now: Date, limit: Int, window: TimeInterval) async throws -> Bool
}

/// What recording a callback came to.
package enum GoogleCallbackRecording: Sendable, Hashable {
    /// It was recorded for the pass.
    case recorded(passID: UUID)
    /// Its nonce was kept before: nothing was recorded.
    case replayed
    /// No pass's object has its identifier: nothing was recorded.
    case unknownObject
}

/// What claiming a class's write came to.
package enum GoogleClassClaim: Sendable, Hashable {
    /// This writer is to write the class.
    case claimed
    /// The class holds this content already (or a newer change's): nothing to write.
    case current
    /// Another writer holds the class with other content: try again later.
    case busy
}

/// What a write left on a pass's Google Wallet object: recorded with the write's completion.
package struct GoogleObjectWrite: Sendable, Hashable {
    /// The object's identifier.
    package var objectID: String
    /// Its class's identifier.
    package var classID: String
    /// The pass's update tag it holds.
    package var updateTag: Int64
    /// The SHA-256 (hex) of its JSON without its messages.
    package var digest: String
    /// Its messages, newest last.
    package var messages: [GoogleWallet.Message]
    /// When it was written.
    package var at: Date

    /// Creates the record of a write.
    package init(
        objectID: String, classID: String, updateTag: Int64, digest: String, messages: [GoogleWallet.Message],
        at: Date
    ) {
        self.objectID = objectID
        self.classID = classID
        self.updateTag = updateTag
        self.digest = digest
        self.messages = messages
        self.at = at
    }
}
