import Foundation

/// One push waiting in the durable outbox: a device to tell that one of its passes (or orders) changed.
package struct PendingPush: Sendable, Hashable, Identifiable {
    /// The outbox row.
    package var id: UUID
    /// Whether a pass or an order changed.
    package var subject: TraceSubject
    /// The pass that changed (or the order).
    package var passID: UUID
    /// The pass's pass type (whose certificate authenticates the push under certificate authentication).
    package var passTypeID: UUID
    /// The pass (or order) type identifier: the push's `apns-topic`.
    package var passTypeIdentifier: String
    /// The device the push goes to.
    package var deviceLibraryIdentifier: String
    /// The device's APNs push token. A credential of sorts: never logged.
    package var pushToken: String
    /// How many times sending it failed before.
    package var attempts: Int
    /// Until when this claim holds the push's lease: recording a result checks that the lease is still this one.
    package var leasedUntil: Date

    /// Creates a pending push.
    package init(
        id: UUID, subject: TraceSubject = .pass, passID: UUID, passTypeID: UUID, passTypeIdentifier: String,
        deviceLibraryIdentifier: String, pushToken: String, attempts: Int, leasedUntil: Date
    ) {
        self.id = id
        self.subject = subject
        self.passID = passID
        self.passTypeID = passTypeID
        self.passTypeIdentifier = passTypeIdentifier
        self.deviceLibraryIdentifier = deviceLibraryIdentifier
        self.pushToken = pushToken
        self.attempts = attempts
        self.leasedUntil = leasedUntil
    }
}
