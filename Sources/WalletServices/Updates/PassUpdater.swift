import Foundation
import Secrets
import Logging
import WalletDocuments
import WalletPasses

/// Changes passes after they were issued: rewrites `pass.json`, moves the pass's `Last-Modified` and update tag
/// forward, and queues a push to every device registered for it, in one transaction; then wakes the push
/// dispatcher. Devices fetch the re-signed pass from the web service when the push reaches them.
public struct PassUpdater: Sendable {
    let store: any PassChangeStore & PassTraceStore
    let clock: any CofferClock
    let logger: Logger
    /// Where each change goes in its pass's trace.
    let trace: PassEventRecorder
    /// Called after a change committed with pushes queued (the dispatcher's wake-up).
    package let pushesQueued: @Sendable () -> Void

    /// Creates an updater; each change goes in its pass's trace through `trace`.
    package init(
        store: any PassChangeStore & PassTraceStore, clock: any CofferClock = SystemClock(),
        logger: Logger = Logger(label: "coffer.updates"), trace: PassEventRecorder,
        pushesQueued: @escaping @Sendable () -> Void = {}
    ) {
        self.store = store
        self.clock = clock
        self.logger = logger
        self.trace = trace
        self.pushesQueued = pushesQueued
    }

    /// Applies `change` to the pass with `passID` and returns the pass as stored.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` for an unknown pass, ``WalletServerError/invalidArgument(_:)``
    ///   for a change the pass cannot take (an unknown field key, a value too long, a result Wallet would refuse).
    @discardableResult
    public func update(passID: UUID, _ change: PassChange) async throws -> StoredPass {
        // The change is applied to the content as stored when the transaction holds the pass, so that two changes
        // made at once both take effect.
        let changed = Locked<[String: JSONValue]>([:])
        let (stored, queued) = try await store.applyChange(passID: passID, now: clock.now) { content in
            let (rewrite, details) = try Self.applying(change, to: content)
            changed.withLock { $0 = details }
            return rewrite
        }
        logger.info(
            "changed a pass",
            metadata: ["pass": "\(passID)", "update_tag": "\(stored.updateTag)", "pushes": "\(queued)"])
        var details = changed.withLock { $0 }
        details["update_tag"] = .number(Double(stored.updateTag))
        var events = [trace.event(.changed, passID: passID, details: details)]
        if queued > 0 {
            events.append(trace.event(.pushQueued, passID: passID, details: ["devices": .number(Double(queued))]))
        }
        await trace.record(events)
        if queued > 0 { pushesQueued() }
        return stored
    }

    /// The archived pass `content` with `change` applied and the notices of its changed fields, and what changed for
    /// its trace: each field whose value changed with whether it has a `changeMessage` (without one, Wallet updates
    /// the pass silently), and the dates and voiding the change set.
    ///
    /// - Throws: ``WalletServerError/invalidArgument(_:)`` for a change the pass cannot take,
    ///   `WalletDocumentError/invalidPass(_:)` for one that would make it invalid.
    private static func applying(_ change: PassChange, to content: Data) throws -> (PassRewrite, [String: JSONValue]) {
        try applying(change, to: try PassPackage(archive: content))
    }

    /// ``applying(_:to:)-(_,Data)`` to a package already read.
    package static func applying(_ change: PassChange, to original: PassPackage) throws
        -> (PassRewrite, [String: JSONValue])
    {
        let before = try original.pass
        let package = try change.applied(to: original)
        let after = try package.pass
        try package.validate()
        var fields: [JSONValue] = []
        var notices: [PassChangeNotice] = []
        for key in change.fieldKeys.sorted() where before.fields.field(forKey: key) != after.fields.field(forKey: key) {
            let notice = after.fields.field(forKey: key).flatMap(PassChangeNotice.init(field:))
            fields.append(.object(["key": .string(key), "change_message": .bool(notice != nil)]))
            if let notice { notices.append(notice) }
        }
        var details: [String: JSONValue] = ["fields": .array(fields)]
        if let voided = change.voided { details["voided"] = .bool(voided) }
        if !change.semantics.isEmpty {
            details["semantics"] = .array(change.semantics.keys.sorted().map(JSONValue.string))
        }
        if change.expirationDate != nil { details["expiration_date"] = .bool(true) }
        if change.relevantDate != nil { details["relevant_date"] = .bool(true) }
        return (PassRewrite(content: try package.archived(), notices: notices), details)
    }
}
