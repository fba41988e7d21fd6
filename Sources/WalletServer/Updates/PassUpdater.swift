import Foundation
import Secrets
import Logging
import WalletPasses

/// Changes passes after they were issued: rewrites `pass.json`, moves the pass's `Last-Modified` and update tag
/// forward, and queues a push to every device registered for it, in one transaction; then wakes the push
/// dispatcher. Devices fetch the re-signed pass from the web service when the push reaches them.
public struct PassUpdater: Sendable {
    let store: any WalletRepository
    let clock: any CofferClock
    let logger: Logger
    /// Called after a change committed with pushes queued (the dispatcher's wake-up).
    let pushesQueued: @Sendable () -> Void

    /// Creates an updater.
    public init(
        store: any WalletRepository, clock: any CofferClock = SystemClock(),
        logger: Logger = Logger(label: "coffer.updates"), pushesQueued: @escaping @Sendable () -> Void = {}
    ) {
        self.store = store
        self.clock = clock
        self.logger = logger
        self.pushesQueued = pushesQueued
    }

    /// Applies `change` to the pass with `passID` and returns the pass as stored.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` for an unknown pass, ``WalletServerError/invalidArgument(_:)``
    ///   for a change the pass cannot take (an unknown field key, a value too long, a result Wallet would refuse).
    @discardableResult
    public func update(passID: UUID, _ change: PassChange) async throws -> ApplePass {
        // The change is applied to the content as stored when the transaction holds the pass, so that two changes
        // made at once both take effect.
        let (stored, queued) = try await store.applyChange(passID: passID, now: clock.now) { content in
            try Self.applying(change, to: content)
        }
        logger.info(
            "changed a pass",
            metadata: ["pass": "\(passID)", "update_tag": "\(stored.updateTag)", "pushes": "\(queued)"])
        if queued > 0 { pushesQueued() }
        return stored
    }

    /// The archived pass `content` with `change` applied.
    ///
    /// - Throws: ``WalletServerError/invalidArgument(_:)`` for a change the pass cannot take,
    ///   ``WalletPassesError/invalidPass(_:)`` for one that would make it invalid.
    private static func applying(_ change: PassChange, to content: Data) throws -> Data {
        var package = try PassPackage(archive: content)
        try package.setPass(try change.applied(to: try package.pass))
        try package.validate()
        return try package.archived()
    }
}
