import Foundation

/// One write of a pass's Google Wallet object waiting in the outbox: the pass changed (or was first asked for a
/// save link), so its object is written with the pass as it is when the write is sent, and each notice added as a
/// message.
package struct PendingGoogleWrite: Sendable, Hashable, Identifiable {
    /// The outbox row.
    package var id: UUID
    /// The pass.
    package var passID: UUID
    /// The pass's pass type, whose issuer and service account write it.
    package var passTypeID: UUID
    /// What the change tells the holder.
    package var notices: [PassChangeNotice]
    /// How many times sending it failed before.
    package var attempts: Int
    /// When it was queued.
    package var createdAt: Date
    /// Until when this claim holds the write's lease.
    package var leasedUntil: Date

    /// Creates a pending write.
    package init(
        id: UUID, passID: UUID, passTypeID: UUID, notices: [PassChangeNotice], attempts: Int, createdAt: Date,
        leasedUntil: Date
    ) {
        self.id = id
        self.passID = passID
        self.passTypeID = passTypeID
        self.notices = notices
        self.attempts = attempts
        self.createdAt = createdAt
        self.leasedUntil = leasedUntil
    }
}
