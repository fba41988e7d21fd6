import Foundation
import Logging
import WalletPasses

/// Changes passes after they were issued: rewrites `pass.json`, moves the pass's `Last-Modified` and update tag
/// forward, and queues a push to every device registered for it, in one transaction; then wakes the push
/// dispatcher. Devices fetch the re-signed pass from the web service when the push reaches them.
public struct PassUpdater: Sendable {
    let store: any WalletRepository
    let now: @Sendable () -> Date
    let logger: Logger
    /// Called after a change committed with pushes queued (the dispatcher's wake-up).
    let pushesQueued: @Sendable () -> Void

    /// Creates an updater.
    public init(
        store: any WalletRepository, now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "coffer.updates"), pushesQueued: @escaping @Sendable () -> Void = {}
    ) {
        self.store = store
        self.now = now
        self.logger = logger
        self.pushesQueued = pushesQueued
    }

    /// Applies `change` to the pass with `passID` and returns the pass as stored.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` for an unknown pass, ``WalletServerError/invalidArgument(_:)``
    ///   for a change the pass cannot take (an unknown field key, a value too long, a result Wallet would refuse).
    @discardableResult
    public func update(passID: UUID, _ change: PassChange) async throws -> ApplePass {
        guard let record = try await store.pass(id: passID) else { throw WalletServerError.notFound("pass \(passID)") }
        var package = try PassPackage(archive: record.passContent)
        let pass = try change.applied(to: try package.pass)
        try package.setPass(pass)
        let issues = package.validationIssues()
        guard issues.isEmpty else {
            throw WalletServerError.invalidArgument(
                "the changed pass would not be valid: "
                    + issues.map { "\($0.key) \($0.message)" }.joined(separator: "; "))
        }
        let (stored, queued) = try await store.applyChange(passID: passID, content: try package.archived(), now: now())
        logger.info(
            "changed a pass",
            metadata: ["pass": "\(passID)", "update_tag": "\(stored.updateTag)", "pushes": "\(queued)"])
        if queued > 0 { pushesQueued() }
        return stored
    }
}
