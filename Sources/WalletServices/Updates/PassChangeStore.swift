import Foundation

/// Where a change to an issued pass is applied: ``PassUpdater``'s store.
package protocol PassChangeStore: Sendable {
    /// Replaces the pass's content with what `rewrite` makes of the content stored (`nil`: keeps it), moves its
    /// `Last-Modified` and update tag forward, queues a push to each registered device and, when its pass type has a
    /// Google Wallet issuer, a write of its Google object with the rewrite's notices, in one transaction that holds
    /// the pass's row: concurrent changes apply one after the other, none lost. Returns the pass as stored and how
    /// many pushes were queued; what `rewrite` throws aborts the change.
    func applyChange(passID: UUID, now: Date, rewritingContent rewrite: (@Sendable (Data) throws -> PassRewrite)?)
        async throws -> (pass: StoredPass, queuedPushes: Int)
}

extension PassChangeStore {
    /// Replaces the pass's content with `content` (`nil`: keeps it) as
    /// ``applyChange(passID:now:rewritingContent:)`` does.
    package func applyChange(passID: UUID, content: Data?, now: Date) async throws
        -> (pass: StoredPass, queuedPushes: Int)
    {
        let rewrite: (@Sendable (Data) throws -> PassRewrite)? = content.map { content in
            { @Sendable _ in PassRewrite(content: content) }
        }
        return try await applyChange(passID: passID, now: now, rewritingContent: rewrite)
    }
}

/// A pass as the web service sees it: enough to authenticate a device and answer `If-Modified-Since`.
package struct WebServicePass: Hashable, Sendable {
    /// The pass's identifier.
    package var passID: UUID
    /// The SHA-256 of its `authenticationToken`, once it was given one.
    package var authenticationTokenHash: Data?
    /// When what devices fetch last changed.
    package var modifiedAt: Date

    /// Creates the record.
    package init(passID: UUID, authenticationTokenHash: Data?, modifiedAt: Date) {
        self.passID = passID
        self.authenticationTokenHash = authenticationTokenHash
        self.modifiedAt = modifiedAt
    }
}

/// What a device's registration for a pass came to.
package enum DeviceRegistration: Hashable, Sendable {
    /// The device was not registered for the pass; now it is, one of `registeredDevices` (1: the pass's first). At
    /// the device cap, it took the place of `evicted`, a registration no device had answered for.
    case created(registeredDevices: Int, evicted: String?)
    /// The device was registered already; its push token for the pass is the new one.
    case renewed
    /// The pass has as many devices as it may: nothing was stored.
    case refused(registeredDevices: Int)
}
