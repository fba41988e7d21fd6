import Crypto
import Foundation
import Logging
import Secrets
import WalletDocuments
import WalletPasses

/// Records what happens to passes in their traces (``PassTraceStore``), for ``PassTrace`` to show and diagnose.
///
/// A trace never fails what it describes: an event that cannot be stored is logged and dropped. Events on a request's
/// path that a device or an API client sends often (update checks, fetches, issuer data) are recorded in the
/// background with ``note(_:)``, at most ``maximumPending`` at once, gathered for ``backgroundDelay`` so that a busy
/// server writes them in a few transactions rather than one beside each request's own; concurrent events share one
/// transaction either way. A crash loses the background events not yet written: at most those of the last
/// ``backgroundDelay`` and any still waiting for the database.
public final class PassEventRecorder: Sendable {
    /// The most background events waiting to be stored; beyond it new ones are dropped (and counted in the log).
    package static let maximumPending = 10_000
    /// How long a repeat of a background event is not stored again: a second.
    package static let repeatWindow: TimeInterval = 1
    /// How long a background event waits for others to be written with: 50 ms.
    package static let backgroundDelay: Duration = .milliseconds(50)
    /// The most background events written in one transaction; more are written without waiting.
    package static let maximumBackgroundBatch = 512

    let store: any PassTraceStore
    let clock: any CofferClock
    private let devices: PassAuthenticationTokens?
    private let logger: Logger
    private let pending = Locked((count: 0, dropped: 0))
    /// Background events not yet handed to the store, and whether a write of them is scheduled.
    private let gathered = Locked((events: [NewPassEvent](), isScheduled: false))
    /// When each distinct event ``note(_:)`` stored was last noted.
    private let recent = Locked<[RepeatKey: Date]>([:])
    /// Rung after events that queue webhook deliveries are stored.
    private let outbox: OutboxWakeUp?

    /// Creates a recorder over `store` that rings `outbox` after storing events that queue webhook deliveries; device
    /// identifiers are kept as `devices`' keyed digests (as a digest under a key of this process when there is no web
    /// service, whose devices could not authenticate anyway).
    package init(
        store: any PassTraceStore, devices: PassAuthenticationTokens?, outbox: OutboxWakeUp? = nil,
        clock: any CofferClock = SystemClock(), logger: Logger = Logger(label: "coffer.trace")
    ) {
        self.store = store
        self.outbox = outbox
        self.devices = devices
        self.clock = clock
        self.logger = logger
    }

    /// What the trace keeps of a device's library identifier (``PassAuthenticationTokens/deviceDigest(_:)``).
    package func deviceDigest(_ deviceLibraryIdentifier: String) -> String {
        devices?.deviceDigest(deviceLibraryIdentifier) ?? DeviceIdentifierDigest.logValue(deviceLibraryIdentifier)
    }

    /// What a webhook to `clientID`'s endpoints carries of a device the trace keeps as `traceDigest`: a digest of
    /// both, the same for one client's every delivery and different for every other client, so that two issuers
    /// cannot link one phone by comparing what their webhooks say.
    package static func webhookDeviceDigest(_ traceDigest: String, clientID: UUID) -> String {
        let message = Data("coffer webhook device\u{0}\(clientID.uuidString)\u{0}\(traceDigest)".utf8)
        return String(SHA256.hash(data: message).hexString.prefix(16))
    }

    /// An event of `kind` for the pass or order `id`, now, with what only its webhook carries in `webhookDetails`.
    package func event(
        _ kind: PassEvent.Kind, subject: TraceSubject, id: UUID, device: String? = nil,
        details: [String: JSONValue] = [:], webhookDetails: [String: JSONValue] = [:]
    ) -> NewPassEvent {
        NewPassEvent(
            passID: id, subject: subject, occurredAt: clock.now, kind: kind, device: device.map(deviceDigest),
            details: details, webhookDetails: webhookDetails)
    }

    /// An event of `kind` for the pass, now, with what only its webhook carries in `webhookDetails`.
    package func event(
        _ kind: PassEvent.Kind, passID: UUID, device: String? = nil, details: [String: JSONValue] = [:],
        webhookDetails: [String: JSONValue] = [:]
    ) -> NewPassEvent {
        event(kind, subject: .pass, id: passID, device: device, details: details, webhookDetails: webhookDetails)
    }

    /// An event of `kind` for the order `orderID`, now.
    package func event(
        _ kind: PassEvent.Kind, orderID: UUID, device: String? = nil, details: [String: JSONValue] = [:]
    ) -> NewPassEvent {
        event(kind, subject: .order, id: orderID, device: device, details: details)
    }

    /// Stores `events` and returns once they are stored (or failed, which is logged).
    package func record(_ events: NewPassEvent...) async {
        await record(events)
    }

    /// Stores `events`, with the webhook deliveries they make, and returns once they are stored (or failed, which is
    /// logged). Background events still gathered are stored first, in the same transaction, so that a trace keeps
    /// the order in which things happened.
    package func record(_ events: [NewPassEvent]) async {
        let earlier = takeGathered()
        await write(earlier + events)
        if !earlier.isEmpty { pending.withLock { $0.count -= earlier.count } }
    }

    /// Stores `events` and rings the outbox if that queued webhook deliveries; a failure is logged.
    private func write(_ events: [NewPassEvent]) async {
        guard !events.isEmpty else { return }
        do {
            if try await store.recordPassEvents(events) { outbox?.ring() }
        } catch {
            logger.warning(
                "a pass trace event could not be stored",
                metadata: [
                    "kind": "\(events[0].kind.rawValue)", "pass": "\(events[0].passID)",
                    "error": "\(LoggedError.description(of: error))",
                ])
        }
    }

    /// Stores device logs (`POST /v1/log`, which anyone may call) in their passes' traces, each pass at most
    /// ``PassTrace/deviceLogsPerPass`` a day and each message once; returns once they are stored (or failed).
    package func recordDeviceLogs(_ events: [NewPassEvent]) async {
        guard !events.isEmpty else { return }
        do {
            _ = try await store.recordDeviceLogEvents(
                events, perPass: PassTrace.deviceLogsPerPass,
                since: clock.now.addingTimeInterval(-PassTrace.deviceLogWindow))
        } catch {
            logger.warning(
                "device logs could not be stored in a pass trace",
                metadata: ["error": "\(LoggedError.description(of: error))"])
        }
    }

    /// Stores `events` in the background, unless ``maximumPending`` events are waiting already. An event the same as
    /// one noted less than ``repeatWindow`` before (the same kind, pass, device and details: a device fetching again
    /// and again) is kept only once.
    package func note(_ events: [NewPassEvent]) {
        let events = events.filter(isNew)
        guard !events.isEmpty else { return }
        let admitted = pending.withLock { state -> Bool in
            guard state.count + events.count <= Self.maximumPending else {
                state.dropped += events.count
                return false
            }
            state.count += events.count
            return true
        }
        guard admitted else {
            let dropped = pending.withLock { $0.dropped }
            if dropped % 1000 < events.count {
                logger.notice(
                    "pass trace events are dropped: the database cannot keep up",
                    metadata: ["dropped": "\(dropped)"])
            }
            return
        }
        let (isFull, schedules) = gathered.withLock { gathered -> (Bool, Bool) in
            gathered.events.append(contentsOf: events)
            defer { gathered.isScheduled = true }
            return (gathered.events.count >= Self.maximumBackgroundBatch, !gathered.isScheduled)
        }
        guard isFull || schedules else { return }
        Task {
            if !isFull { try? await Task.sleep(for: Self.backgroundDelay) }
            let events = takeGathered()
            await write(events)
            pending.withLock { $0.count -= events.count }
        }
    }

    /// The background events gathered so far, which the caller now stores.
    private func takeGathered() -> [NewPassEvent] {
        gathered.withLock { gathered in
            defer { gathered = ([], false) }
            return gathered.events
        }
    }

    /// Whether `event` differs from every event noted in the last ``repeatWindow``; remembers it. At most
    /// ``maximumPending`` events are remembered: past that the memory starts again.
    private func isNew(_ event: NewPassEvent) -> Bool {
        let key = RepeatKey(kind: event.kind, passID: event.passID, device: event.device, details: event.details)
        return recent.withLock { recent in
            if let last = recent[key], event.occurredAt.timeIntervalSince(last) < Self.repeatWindow { return false }
            if recent.count >= Self.maximumPending { recent.removeAll(keepingCapacity: true) }
            recent[key] = event.occurredAt
            return true
        }
    }

    /// Waits until every event ``note(_:)`` took is stored (or failed): before reading a trace, and when the server
    /// stops (``TraceFlusher``).
    public func flush() async {
        while pending.withLock({ $0.count }) > 0 { try? await Task.sleep(for: .milliseconds(5)) }
    }
}

extension PassEventRecorder {
    /// What makes two background events repeats of each other: all but the time.
    private struct RepeatKey: Hashable {
        var kind: PassEvent.Kind
        var passID: UUID
        var device: String?
        var details: [String: JSONValue]
    }
}
