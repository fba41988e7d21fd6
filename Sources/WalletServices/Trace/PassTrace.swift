import Foundation
import Secrets
import WalletDocuments
import WalletPasses

/// A pass's trace as its issuer reads it: the events, oldest first, a page at a time, and a diagnosis of why the pass
/// may not update on devices, one finding per known cause.
package struct PassTrace: Sendable {
    /// A known cause of a pass not updating, found in its trace.
    package struct Finding: Hashable, Sendable, Encodable {
        /// A stable code a program can switch on.
        package var code: String
        /// What happened and what to do, in a sentence or two.
        package var message: String
        /// The event that shows it, if one does.
        package var eventID: Int64?

        enum CodingKeys: String, CodingKey {
            case code, message
            case eventID = "event_id"
        }
    }

    /// The most events one page holds.
    package static let maximumPageSize = 500
    /// How many of the newest events the diagnosis reads, device logs apart.
    package static let diagnosedEvents = 2_000
    /// How many device logs one pass keeps in a day (``deviceLogWindow``), each message once: they come from an
    /// unauthenticated route, so they can neither crowd the trace nor push real events out of the diagnosis.
    package static let deviceLogsPerPass = 20
    /// The window ``deviceLogsPerPass`` counts in: a day.
    package static let deviceLogWindow: TimeInterval = 86_400
    /// How long after APNs accepted a push the diagnosis expects a fetch.
    package static let fetchGrace: TimeInterval = 120
    /// APNs reasons that mean the pass type's push credentials (certificate, key or topic) are at fault.
    package static let credentialReasons: Set<String> = [
        "TopicDisallowed", "BadCertificate", "BadCertificateEnvironment", "InvalidProviderToken",
        "MissingProviderToken", "BadTopic", "MissingTopic", "Forbidden",
    ]

    let repository: any PassTraceStore & PassWebServiceStore
    /// The `webServiceURL` passes carry; `nil` when they carry none (the public URL is not https).
    let webServiceURL: String?
    let clock: any CofferClock

    /// Creates the reader for passes that carry `webServiceURL` (`nil`: none).
    package init(
        repository: any PassTraceStore & PassWebServiceStore, webServiceURL: String?,
        clock: any CofferClock = SystemClock()
    ) {
        self.repository = repository
        self.webServiceURL = webServiceURL
        self.clock = clock
    }

    /// Up to `limit` (1–``maximumPageSize``) of the pass's events after the event `cursor` names, oldest first,
    /// with the cursor of the next page when there may be one.
    package func events(passID: UUID, cursor: String?, limit: Int) async throws
        -> (events: [PassEvent], nextCursor: String?)
    {
        var after: Int64?
        if let cursor {
            guard let id = Int64(cursor), id >= 0 else {
                throw PassManagementFailure.invalidRequest("'cursor' is not a cursor a page handed out")
            }
            after = id
        }
        guard (1...Self.maximumPageSize).contains(limit) else {
            throw PassManagementFailure.invalidRequest("'limit' must be 1–\(Self.maximumPageSize)")
        }
        let events = try await repository.passEvents(passID: passID, after: after, limit: limit)
        return (events, events.count == limit ? events.last.map { String($0.id) } : nil)
    }

    /// What the pass's newest events and its registrations say now about why it may not update.
    package func diagnosis(passID: UUID) async throws -> [Finding] {
        // Device logs are read apart, so that however many there are, the real events stay in view.
        let events = try await repository.latestPassEvents(
            passID: passID, limit: Self.diagnosedEvents, deviceLogs: false)
        let logs = try await repository.latestPassEvents(
            passID: passID, limit: Self.deviceLogsPerPass, deviceLogs: true)
        let newest = (events + logs).sorted { $0.id > $1.id }
        let registrations = try await repository.registrationCount(of: .pass, id: passID)
        return Self.diagnose(
            newestFirst: newest, registrations: registrations, webServiceURL: webServiceURL, now: clock.now)
    }

    /// The findings for events `newestFirst`, `registrations` devices now, and passes that carry `webServiceURL`.
    static func diagnose(newestFirst events: [PassEvent], registrations: Int, webServiceURL: String?, now: Date)
        -> [Finding]
    {
        var findings: [Finding] = []
        func newest(_ kind: PassEvent.Kind) -> PassEvent? { events.first { $0.kind == kind } }

        if let change = newest(.changed), case .array(let fields)? = change.details["fields"] {
            let silent = fields.compactMap { field -> String? in
                guard case .object(let object) = field, object["change_message"] == .bool(false),
                    case .string(let key)? = object["key"]
                else { return nil }
                return key
            }
            if !silent.isEmpty {
                findings.append(
                    Finding(
                        code: "change_without_message",
                        message: "the last change (\(Self.time(change.occurredAt))) set "
                            + silent.map { "'\($0)'" }.joined(separator: ", ")
                            + " without a changeMessage: devices update the pass silently, with no notification. "
                            + "Give those fields a changeMessage (e.g. \"Now %@\") in the template.",
                        eventID: change.id))
            }
        }

        if registrations == 0 {
            let message: String
            if webServiceURL == nil {
                message =
                    "no device is registered for updates: passes carry no webServiceURL because the server's public "
                    + "URL is not https (start it with --public-url https://…), so Wallet never registers them"
            } else if let removed = events.first(where: {
                $0.kind == .pushRefused && $0.details["registration_removed"] == .bool(true)
            }), newest(.registered).map({ $0.id < removed.id }) ?? true {
                message =
                    "no device is registered: APNs said the last device's push token is no longer valid "
                    + "(\(Self.time(removed.occurredAt))), so its registration was removed; the pass was deleted "
                    + "from Wallet or the device was erased"
            } else if let gone = newest(.unregistered) {
                message =
                    "no device is registered: the last one unregistered (\(Self.time(gone.occurredAt))), as Wallet "
                    + "does when the pass is deleted or its updates are turned off"
            } else {
                message =
                    "no device ever registered for this pass: it was never added to Wallet, or Wallet could not "
                    + "register with \(webServiceURL ?? "the web service") (it needs https with a trusted certificate)"
            }
            findings.append(Finding(code: "no_device_registered", message: message, eventID: nil))
        }

        if let refused = events.first(where: {
            $0.kind == .registered && ($0.details["outcome"]?.string?.hasPrefix("refused") ?? false)
        }) {
            findings.append(
                Finding(
                    code: "registration_refused",
                    message: "a device's registration was refused (\(Self.time(refused.occurredAt))): the pass has "
                        + "as many devices as it may (--max-devices-per-pass)",
                    eventID: refused.id))
        }

        if let sent = newest(.pushSent), now.timeIntervalSince(sent.occurredAt) > Self.fetchGrace,
            !events.contains(where: { $0.kind == .fetched && $0.id > sent.id })
        {
            findings.append(
                Finding(
                    code: "push_not_fetched",
                    message: "APNs accepted a push at \(Self.time(sent.occurredAt)) but no device fetched the pass "
                        + "since: the device is offline or asleep, or Wallet ignored the push (the push token "
                        + "belongs to another pass type's topic)",
                    eventID: sent.id))
        }

        if let refused = events.first(where: { event in
            guard event.kind == .pushRefused || event.kind == .pushFailed else { return false }
            let status = event.details["status"]?.number
            let reason = event.details["reason"]?.string ?? ""
            return Self.credentialReasons.contains(reason) || status == 403 || status == 0
        }) {
            let reason = refused.details["reason"]?.string ?? "refused"
            findings.append(
                Finding(
                    code: "push_credentials",
                    message: "APNs refused the pass type's push credentials (\(reason), "
                        + "\(Self.time(refused.occurredAt))): renew the Pass Type ID certificate with `coffer admin "
                        + "pass-type import`, or check the APNs key's team and the environment "
                        + "(--apns-environment)",
                    eventID: refused.id))
        }

        if let abandoned = events.first(where: { $0.kind == .pushFailed && $0.details["abandoned"] == .bool(true) }) {
            findings.append(
                Finding(
                    code: "push_abandoned",
                    message: "a push was given up after its last attempt (\(Self.time(abandoned.occurredAt))): "
                        + (abandoned.details["reason"]?.string ?? "APNs did not accept it"),
                    eventID: abandoned.id))
        }

        if let failed = newest(.webhookFailed) {
            findings.append(
                Finding(
                    code: "webhook_failed",
                    message: "a webhook (\(failed.details["event_type"]?.string ?? "an event")) was given up after a "
                        + "day of retries (\(Self.time(failed.occurredAt))): "
                        + (failed.details["reason"]?.string ?? "the endpoint did not accept it")
                        + "; it is kept as failed",
                    eventID: failed.id))
        }

        // Only while no later write succeeded: the pass's next change writes the whole object again.
        if let google = events.first(where: { $0.kind == .googleWritten || $0.kind == .googleFailed }),
            google.kind == .googleFailed, google.details["abandoned"] == .bool(true)
        {
            findings.append(
                Finding(
                    code: "google_failed",
                    message: "Google Wallet refused the pass's object (\(Self.time(google.occurredAt))): "
                        + (google.details["detail"]?.string ?? google.details["reason"]?.string ?? "no reason given")
                        + "; Android holders see the pass as it was until a change Google accepts",
                    eventID: google.id))
        }

        var causes: Set<String> = []
        for log in events where log.kind == .deviceLog {
            guard let cause = log.details["cause"]?.string, causes.insert(cause).inserted else { continue }
            findings.append(
                Finding(
                    code: "device_log",
                    message: "a device log reported (\(Self.time(log.occurredAt))): \(cause). Device logs come from "
                        + "an unauthenticated route: anyone can send one, so check it against the events above",
                    eventID: log.id))
        }
        return findings
    }

    /// `date` as RFC 3339 in UTC, to the second.
    package static func time(_ date: Date) -> String { date.formatted(.iso8601) }
}
