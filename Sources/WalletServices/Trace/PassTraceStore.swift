import Foundation

/// Where passes' traces are kept (the `pass_events` table). ``WalletRepository`` includes it.
package protocol PassTraceStore: Sendable {
    /// Stores `events`, in one transaction, with a webhook delivery for each endpoint of the pass's client that takes
    /// an event's ``NewPassEvent/webhookType``; concurrent callers' events are committed together. Returns whether
    /// any delivery was queued (in that commit, perhaps for another caller's events).
    @discardableResult
    func recordPassEvents(_ events: [NewPassEvent]) async throws -> Bool
    /// Up to `limit` of the pass's events after the event `after` (from the first when `nil`), oldest first.
    func passEvents(passID: UUID, after: Int64?, limit: Int) async throws -> [PassEvent]
    /// The pass's newest `limit` events, newest first.
    func latestPassEvents(passID: UUID, limit: Int) async throws -> [PassEvent]
    /// The pass's newest `limit` device logs (`deviceLogs`), or events of every other kind, newest first.
    func latestPassEvents(passID: UUID, limit: Int, deviceLogs: Bool) async throws -> [PassEvent]
    /// Stores the device-log events of `events` that are new: each only if its pass has fewer than `perPass` device
    /// logs since `since` and none with the same details, counted under the pass's lock so replicas agree. Returns
    /// how many it stored.
    func recordDeviceLogEvents(_ events: [NewPassEvent], perPass: Int, since: Date) async throws -> Int
    /// Up to `limit` passes that `identifier` names, over every client: by serial number, by a tag's reference,
    /// Pronto or subscription identifier, or by the pass's or tag's own identifier.
    func passes(named identifier: String, limit: Int) async throws -> [NamedPass]
}

/// A pass an operator named, with what tells it apart from others of the same name.
public struct NamedPass: Hashable, Sendable {
    /// The pass.
    public var passID: UUID
    /// Its serial number.
    public var serialNumber: String
    /// Its pass type identifier.
    public var passTypeIdentifier: String
    /// The client whose tag it is.
    public var clientID: UUID

    /// Creates the record.
    public init(passID: UUID, serialNumber: String, passTypeIdentifier: String, clientID: UUID) {
        self.passID = passID
        self.serialNumber = serialNumber
        self.passTypeIdentifier = passTypeIdentifier
        self.clientID = clientID
    }
}
