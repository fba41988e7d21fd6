import Foundation
import Secrets
import Logging
import ServiceLifecycle
import WalletDocuments
import WalletPasses

/// Drains the durable outbox (``DeliveryOutbox``, ``GoogleWalletOutbox``) into APNs, issuers' webhook endpoints and
/// Google Wallet: when woken (``wake()``, which the pass updater and the trace call after they commit) and every
/// ``pollInterval`` (for deliveries a restart or another replica left behind).
///
/// Pushes, webhooks and Google Wallet writes have their own workers (``DeliveryLane``): at most
/// ``APNsConfiguration/maximumInFlight`` pushes, ``webhookWorkers`` webhooks and
/// ``GoogleWalletConfiguration/maximumInFlight`` writes at once, each started as soon as a worker is free, so a
/// stalled webhook endpoint never holds up a push or another endpoint's webhooks; no endpoint has more than
/// ``webhooksPerEndpoint`` deliveries in flight, no client's endpoints more than ``webhooksPerClient``, and no client
/// or pass type more than ``googleWritesPerClient`` or ``googleWritesPerPassType`` writes, on all replicas
/// together; every send has one overall deadline.
/// Each delivery is claimed under a lease of ``lease`` (so that two replicas never send it at once) and its result
/// recorded (a push's once its worker has moved on to the next, the outbox's writes batched): delivered pushes are
/// completed; a token APNs no longer knows removes the device's registration of that
/// pass; a push worth retrying is scheduled again after an exponential backoff with jitter (at least what APNs asked
/// for with `Retry-After`), and abandoned after ``maximumAttempts``; a push APNs refused is abandoned, unless the
/// refusal was of the server's credentials (403, or an identity that could not be used: status 0), which an operator
/// can fix: those are retried like failures. Logs name the pass and the device library identifier, never the push
/// token.
///
/// It runs as a ServiceLifecycle `Service` until graceful shutdown, then closes its ``PushSender``. Run it once.
public struct DeliveryDispatcher: Service {
    /// Where pushes wait.
    package let outbox: any DeliveryOutbox
    /// What sends them.
    package let client: any PushSender
    /// The time between rounds when nothing wakes the dispatcher.
    public let pollInterval: Duration
    /// How long a claimed push is kept from other claims; longer than a push can take.
    package let lease: TimeInterval
    /// How many times a push is sent before it is given up.
    package let maximumAttempts: Int
    /// The first retry's delay; each further attempt doubles it, up to ``maximumDelay``.
    package let baseDelay: TimeInterval
    /// The longest delay between two attempts.
    package let maximumDelay: TimeInterval
    /// What posts webhook deliveries, if the dispatcher sends them.
    package let webhooks: (any WebhookPoster)?
    /// How many webhooks are sent at once.
    package let webhookWorkers: Int
    /// How many deliveries one webhook endpoint may have in flight at once, on every replica together: a slow
    /// endpoint holds at most this many workers, for at most the sender's timeout each.
    package static let webhooksPerEndpoint = 2
    /// How many deliveries one client's endpoints together may have in flight at once, on every replica together.
    package static let webhooksPerClient = 4
    /// How long a webhook is retried before it is kept as failed: a day.
    package static let webhookLifetime: TimeInterval = 86_400
    /// What writes passes to Google Wallet, if the dispatcher does.
    package let google: GoogleWalletWriter?
    /// How many writes of one client's passes may be in flight at once, on every replica together: one client's
    /// burst of changes holds at most this many of the Google workers.
    package static let googleWritesPerClient = 4
    /// How many writes of one pass type's passes may be in flight at once, on every replica together, whichever
    /// clients it is shared with: what one Google issuer's account is asked at once.
    package static let googleWritesPerPassType = 4
    /// How long a Google Wallet write is retried before it is kept as failed: a day (a later change of the pass
    /// queues a new write of the whole pass).
    package static let googleWriteLifetime: TimeInterval = 86_400
    private let identity: @Sendable (UUID) async throws -> SigningIdentity
    private let metrics: PushMetrics?
    /// Where each push's result goes in its pass's trace, if anywhere.
    let trace: PassEventRecorder?
    let clock: any CofferClock
    let logger: Logger
    private let wakeUp: OutboxWakeUp

    /// Creates a dispatcher from `outbox` through `client`. `identity` gives a pass type's signing identity by the
    /// pass type's ID (used under certificate authentication only).
    package init(
        outbox: any DeliveryOutbox, client: any PushSender,
        identity: @escaping @Sendable (_ passTypeID: UUID) async throws -> SigningIdentity,
        pollInterval: Duration = .seconds(30), maximumAttempts: Int = 12, baseDelay: TimeInterval = 5,
        maximumDelay: TimeInterval = 3600, metrics: ServerMetrics? = nil, trace: PassEventRecorder? = nil,
        webhooks: (any WebhookPoster)? = nil, webhookWorkers: Int = 32, google: GoogleWalletWriter? = nil,
        wakeUp: OutboxWakeUp = OutboxWakeUp(),
        clock: any CofferClock = SystemClock(), logger: Logger = Logger(label: "coffer.server")
    ) {
        self.outbox = outbox
        self.client = client
        self.identity = identity
        self.pollInterval = pollInterval
        self.lease = max(60, 2 * client.configuration.requestTimeout)
        self.maximumAttempts = max(1, maximumAttempts)
        self.baseDelay = max(0, baseDelay)
        self.maximumDelay = max(self.baseDelay, maximumDelay)
        self.metrics = metrics.map { PushMetrics(metrics: $0) }
        self.trace = trace
        self.webhooks = webhooks
        self.webhookWorkers = max(1, webhookWorkers)
        self.google = google
        self.clock = clock
        self.logger = logger
        self.wakeUp = wakeUp
    }

    /// Asks for a round now (after deliveries were enqueued): rings its ``OutboxWakeUp``.
    public func wake() {
        wakeUp.ring()
    }

    /// The workers that send APNs pushes.
    private var pushLane: DeliveryLane<PendingPush> {
        let (outbox, clock, lease) = (outbox, clock, lease)
        return DeliveryLane(
            workers: client.configuration.maximumInFlight,
            claim: { try await outbox.claimDuePushes(now: clock.now, limit: $0, leaseFor: lease) },
            send: { await send($0) })
    }

    /// The workers that post webhooks, if the dispatcher sends them.
    private var webhookLane: DeliveryLane<PendingWebhook>? {
        guard webhooks != nil else { return nil }
        let (outbox, clock, lease) = (outbox, clock, lease)
        return DeliveryLane(
            workers: webhookWorkers,
            claim: {
                try await outbox.claimDueWebhooks(
                    now: clock.now, limit: $0, perEndpoint: Self.webhooksPerEndpoint, perClient: Self.webhooksPerClient,
                    leaseFor: lease)
            },
            send: { delivery in
                await send(delivery)
                return {}
            })
    }

    /// The workers that write Google Wallet objects, if the dispatcher does. A write makes several calls, each
    /// with its own deadline, so its lease covers ten of them.
    private var googleLane: DeliveryLane<PendingGoogleWrite>? {
        guard let google else { return nil }
        let (clock, lease) = (clock, max(lease, 10 * google.api.configuration.requestTimeout))
        return DeliveryLane(
            workers: google.api.configuration.maximumInFlight,
            claim: {
                try await google.outbox.claimDueGoogleWrites(
                    now: clock.now, limit: $0, perClient: Self.googleWritesPerClient,
                    perPassType: Self.googleWritesPerPassType, leaseFor: lease)
            },
            send: { write in
                await send(write)
                return {}
            })
    }

    /// Sends deliveries until graceful shutdown or cancellation, then closes the clients.
    public func run() async throws {
        let poll = pollInterval
        let wakeUp = wakeUp
        let lanes = (pushes: pushLane, webhooks: webhookLane, google: googleLane)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    wakeUp.ring()
                    try? await Task.sleep(for: poll)
                }
            }
            group.addTask {
                await cancelWhenGracefulShutdown {
                    await withDiscardingTaskGroup { lanesGroup in
                        lanesGroup.addTask {
                            await lanes.pushes.run(
                                wakes: wakeUp.pushes.stream, wake: { wakeUp.pushes.continuation.yield() },
                                claimFailed: claimFailed)
                        }
                        if let webhooks = lanes.webhooks {
                            lanesGroup.addTask {
                                await webhooks.run(
                                    wakes: wakeUp.webhooks.stream,
                                    wake: { wakeUp.webhooks.continuation.yield() },
                                    claimFailed: claimFailed)
                            }
                        }
                        if let google = lanes.google {
                            lanesGroup.addTask {
                                await google.run(
                                    wakes: wakeUp.googleWrites.stream,
                                    wake: { wakeUp.googleWrites.continuation.yield() },
                                    claimFailed: claimFailed)
                            }
                        }
                    }
                }
            }
            await group.next()
            group.cancelAll()
        }
        try await client.shutdown()
        try await google?.api.shutdown()
    }

    private func claimFailed(_ error: any Error) {
        logger.warning(
            "claiming deliveries from the outbox failed; trying again later",
            metadata: ["error": "\(LoggedError.description(of: error))"])
    }

    /// Sends every push, webhook and Google Wallet write due now, each kind on its own workers, and returns how many
    /// it handled once the last send is recorded.
    ///
    /// - Throws: the outbox's error when a claim fails (the deliveries already sent are recorded first).
    @discardableResult
    package func drain() async throws -> Int {
        let lanes = (pushes: pushLane, webhooks: webhookLane, google: googleLane)
        async let pushes = lanes.pushes.drain()
        async let webhooks = lanes.webhooks?.drain() ?? 0
        async let googleWrites = lanes.google?.drain() ?? 0
        return try await pushes + webhooks + googleWrites
    }

    /// Sends one push, and returns what records its result in the outbox and the pass's trace.
    func send(_ push: PendingPush) async -> DeliveryLane<PendingPush>.Recording {
        var signingIdentity: SigningIdentity?
        if case .certificate = client.configuration.authentication {
            do {
                signingIdentity = try await identity(push.passTypeID)
            } catch {
                let reason = "the pass type's signing identity cannot be loaded: " + LoggedError.description(of: error)
                return { await schedule(push, after: nil, reason: reason, details: ["status": .number(0)]) }
            }
        }
        let (outcome, apnsID) = await client.deliver(
            pushToken: push.pushToken, topic: push.passTypeIdentifier, identity: signingIdentity)
        // Cancelled (shutting down): leave the push leased; the lease runs out and a later round sends it.
        guard !Task.isCancelled else { return {} }
        return { await record(outcome, apnsID: apnsID, of: push) }
    }

    /// Records what APNs answered to `push`.
    private func record(_ outcome: APNsPushOutcome, apnsID: String?, of push: PendingPush) async {
        var details: [String: JSONValue] = apnsID.map { ["apns_id": .string($0)] } ?? [:]
        do {
            switch outcome {
            case .delivered:
                try await outbox.completePush(push, now: clock.now)
                metrics?.countDelivered()
                logger.debug("push delivered", metadata: metadata(push))
                details["status"] = .number(200)
                await traced(.pushSent, push, details)
            case .unregistered(let reason):
                let remaining = try await outbox.removeRegistration(for: push)
                metrics?.countUnregistered()
                logger.info(
                    "APNs no longer knows the device's push token; its registration of the pass is removed",
                    metadata: metadata(push, reason: reason))
                details["reason"] = .string(reason)
                details["registration_removed"] = .bool(remaining != nil)
                await traced(.pushRefused, push, details)
                if remaining == 0 {
                    // The pass's last device is gone, as if it had unregistered: the issuer hears pass.removed.
                    await traced(
                        .unregistered, push,
                        ["was_registered": .bool(true), "last_device": .bool(true), "cause": .string("apns_" + reason)])
                }
            case .retry(let after, let reason):
                await schedule(push, after: after, reason: reason, details: details)
            case .rejected(let status, let reason) where status == 403 || status == 0:
                logger.error(
                    "APNs refused the server's credentials; check the pass type's certificate or the APNs key",
                    metadata: metadata(push, reason: reason))
                details["status"] = .number(Double(status))
                await schedule(push, after: nil, reason: reason, details: details)
            case .rejected(let status, let reason):
                try await outbox.abandonPush(push)
                metrics?.countRejected()
                logger.warning("APNs refused the push; it is dropped", metadata: metadata(push, reason: reason))
                details["status"] = .number(Double(status))
                details["reason"] = .string(reason)
                await traced(.pushRefused, push, details)
            }
        } catch {
            logger.warning(
                "recording a push's result failed; it is sent again when its lease runs out",
                metadata: metadata(
                    push, reason: "\(LoggedError.description(of: error))"))
        }
    }

    /// Sends one webhook delivery and records its result: delivered ones leave the outbox; failed ones are sent
    /// again after the backoff, until ``webhookLifetime`` after they were queued, then kept as failed and put in the
    /// pass's trace (when it is about a pass).
    func send(_ delivery: PendingWebhook) async {
        guard let webhooks else { return }
        let outcome = await webhooks.send(delivery)
        guard !Task.isCancelled else { return }
        var metadata: Logger.Metadata = [
            "endpoint": "\(delivery.endpointID)", "event": "\(delivery.eventID)", "attempts": "\(delivery.attempts)",
        ]
        if let passID = delivery.passID { metadata["pass_id"] = "\(passID)" }
        do {
            switch outcome {
            case .delivered:
                try await outbox.completeWebhook(delivery)
                logger.debug("webhook delivered", metadata: metadata)
            case .failed(let reason):
                let now = clock.now
                if now.timeIntervalSince(delivery.createdAt) >= Self.webhookLifetime {
                    try await outbox.failWebhook(delivery, now: now, error: reason)
                    logger.warning(
                        "a webhook failed for a day; it is kept as failed",
                        metadata: metadata.merging(["reason": "\(reason)"]) { $1 })
                    if let trace, let passID = delivery.passID {
                        await trace.record(
                            trace.event(
                                .webhookFailed, passID: passID,
                                details: [
                                    "event_id": .string(delivery.eventID),
                                    "event_type": .string(delivery.eventType.rawValue),
                                    "endpoint": .string(delivery.endpointID.uuidString), "reason": .string(reason),
                                    "attempts": .number(Double(delivery.attempts + 1)),
                                ]))
                    }
                } else {
                    let delay = backoff(attempts: delivery.attempts)
                    try await outbox.retryWebhook(delivery, at: now.addingTimeInterval(delay), error: reason)
                    logger.notice(
                        "a webhook failed; it is sent again later",
                        metadata: metadata.merging(["reason": "\(reason)", "retry_in": "\(Int(delay.rounded())) s"]) {
                            $1
                        })
                }
            }
        } catch {
            logger.warning(
                "recording a webhook's result failed; it is sent again when its lease runs out",
                metadata: metadata.merging([
                    "reason": "\(LoggedError.description(of: error))"
                ]) { $1 })
        }
    }

    /// Schedules `push` again after the backoff (or `after`, if longer), or abandons it after its last attempt; the
    /// pass's trace gets `details` with the reason and what became of the push.
    private func schedule(
        _ push: PendingPush, after: TimeInterval?, reason: String, details: [String: JSONValue] = [:]
    ) async {
        var details = details
        details["reason"] = .string(reason)
        details["attempt"] = .number(Double(push.attempts + 1))
        do {
            if push.attempts + 1 >= maximumAttempts {
                try await outbox.abandonPush(push)
                metrics?.countAbandoned()
                logger.warning(
                    "a push failed \(maximumAttempts) times; it is dropped", metadata: metadata(push, reason: reason))
                details["abandoned"] = .bool(true)
            } else {
                let delay = max(after ?? 0, backoff(attempts: push.attempts))
                try await outbox.retryPush(push, at: clock.now.addingTimeInterval(delay))
                metrics?.countRetried()
                logger.notice(
                    "a push failed; it is sent again later",
                    metadata: metadata(push, reason: reason).merging(["retry_in": "\(Int(delay.rounded())) s"]) { $1 })
                details["retry_in_seconds"] = .number(delay.rounded())
            }
            await traced(.pushFailed, push, details)
        } catch {
            logger.warning(
                "recording a push's result failed; it is sent again when its lease runs out",
                metadata: metadata(
                    push, reason: "\(LoggedError.description(of: error))"))
        }
    }

    /// The delay before attempt `attempts + 2`: ``baseDelay`` doubled `attempts` times, at most ``maximumDelay``,
    /// times a random factor from ½ to 1 (so that pushes that failed together do not come back together).
    func backoff(attempts: Int) -> TimeInterval {
        let exponential = baseDelay * pow(2, Double(min(max(attempts, 0), 30)))
        return min(maximumDelay, exponential) * Double.random(in: 0.5...1)
    }

    /// Records what became of `push` in its pass's trace.
    private func traced(_ kind: PassEvent.Kind, _ push: PendingPush, _ details: [String: JSONValue]) async {
        guard let trace else { return }
        var event = trace.event(kind, passID: push.passID, device: push.deviceLibraryIdentifier, details: details)
        event.subject = push.subject
        await trace.record(event)
    }

    private func metadata(_ push: PendingPush, reason: String? = nil) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "pass_id": "\(push.passID)", "device": "\(DeviceIdentifierDigest.logValue(push.deviceLibraryIdentifier))",
            "attempts": "\(push.attempts)",
        ]
        if let reason { metadata["reason"] = "\(reason)" }
        return metadata
    }
}
