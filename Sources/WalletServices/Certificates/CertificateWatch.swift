import Foundation
import Logging
import Secrets
import ServiceLifecycle

/// Keeps every pass type signing through its certificate's renewal, and makes sure operators and issuers hear of an
/// expiry before their customers do.
///
/// Every ``activationInterval`` (10 seconds) it switches pass types whose staged identity is due
/// (``PassTypeIdentities/activateDue(now:)``; of replicas that look together, one switches). When the server starts
/// and every ``interval`` (an hour) after, it judges when each pass type stops being able to sign (its staged
/// identity counted when that takes over in time): it sets
/// `coffer_pass_type_certificate_expiry_timestamp_seconds`, queues a `pass_type.certificate_expiring` webhook at
/// each of ``CertificateNotice/thresholds`` (once, whichever replica is first), drops replaced identities that have
/// expired, and, at start and daily, logs how long each has left: a warning within
/// ``CertificateExpiry/warningPeriod``, an error once it has passed.
package struct CertificateWatch: Service {
    /// What the pass types are read from and written to.
    let repository: any PassTypeIdentityStore
    /// Their identities, and the switches between them.
    let renewal: PassTypeIdentities
    /// Where the expiry gauge is kept.
    let metrics: ServerMetrics
    /// The time between two looks at the certificates' ends.
    package let interval: Duration
    /// The time between two checks for a staged identity that is due.
    package let activationInterval: Duration
    let clock: any CofferClock
    let logger: Logger

    /// Creates the watch over the server's pass types, whose identities are in `secrets` (cached by `identities`).
    package init(
        repository: any PassTypeIdentityStore, secrets: any SecretsDataStoring, identities: SigningIdentityCache,
        metrics: ServerMetrics, interval: Duration = .seconds(3600), activationInterval: Duration = .seconds(10),
        clock: any CofferClock = SystemClock(), logger: Logger = Logger(label: "coffer.server")
    ) {
        self.repository = repository
        renewal = PassTypeIdentities(store: repository, secrets: secrets, cache: identities, logger: logger)
        self.metrics = metrics
        self.interval = interval
        self.activationInterval = activationInterval
        self.clock = clock
        self.logger = logger
    }

    /// Switches due identities every ``activationInterval`` and looks now and every ``interval``, until graceful
    /// shutdown.
    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            var nextLook = clock.uptime
            var nextLog = clock.uptime
            while !Task.isCancelled {
                let uptime = clock.uptime
                do {
                    try await renewal.activateDue(now: clock.now)
                    if uptime >= nextLook {
                        nextLook = uptime + interval
                        let logging = uptime >= nextLog
                        if logging { nextLog = uptime + .seconds(86_400) }
                        try await look(logging: logging)
                    }
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning(
                        "checking the pass types' certificates failed; trying again later",
                        metadata: ["error": "\(LoggedError.description(of: error))"])
                }
                try await clock.sleep(for: activationInterval)
            }
        }
    }

    /// Judges every pass type's signing end now, sets its gauge, queues the notice it calls for, drops expired
    /// replaced identities and, when `logging`, logs each; returns what it found, by pass type identifier. A pass
    /// type whose identity does not load is left to `/ready`, which says why.
    @discardableResult
    package func look(logging: Bool = true) async throws -> [String: CertificateExpiry] {
        var found: [String: CertificateExpiry] = [:]
        let now = clock.now
        for passType in try await repository.passTypes() {
            try Task.checkCancellation()
            guard let end = try? await renewal.cache.signingEnd(of: passType) else { continue }
            let expiry = CertificateExpiry(notValidAfter: end, now: now)
            found[passType.passTypeIdentifier] = expiry
            metrics.certificateExpires(passTypeIdentifier: passType.passTypeIdentifier, at: end)
            if let notice = CertificateNotice(passType: passType, expiry: expiry),
                try await repository.queueCertificateNotice(notice)
            {
                logger.notice(
                    "queued a certificate expiry webhook",
                    metadata: [
                        "pass_type": "\(passType.passTypeIdentifier)", "threshold_days": "\(notice.thresholdDays)",
                    ])
            }
            if logging { log(expiry, of: passType) }
        }
        try await renewal.dropExpiredRetired(now: now)
        try await repository.deleteCertificateNotices(endingBefore: now.addingTimeInterval(-86_400))
        return found
    }

    private func log(_ expiry: CertificateExpiry, of passType: PassType) {
        var metadata: Logger.Metadata = [
            "pass_type": "\(passType.passTypeIdentifier)", "expires": "\(expiry.endDay)",
            "days_left": "\(expiry.daysLeft)",
        ]
        if let reason = expiry.reason(passTypeIdentifier: passType.passTypeIdentifier) {
            metadata["fix"] = "\(reason)"
            if expiry.isExpired {
                logger.error("a pass type's certificate has expired", metadata: metadata)
            } else {
                logger.warning("a pass type's certificate expires soon", metadata: metadata)
            }
        } else {
            logger.info("a pass type's certificate is valid", metadata: metadata)
        }
    }
}
