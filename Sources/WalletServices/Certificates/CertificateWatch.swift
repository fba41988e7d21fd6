import Foundation
import Logging
import Secrets
import ServiceLifecycle
import WalletPasses

/// Looks at every pass type's certificate when the server starts and once a ``interval`` after: sets
/// `coffer_pass_type_certificate_expiry_timestamp_seconds` and logs how long each has left, a warning within
/// ``CertificateExpiry/warningPeriod`` and an error once it has passed, so that operators hear of an expiry before
/// their customers do.
package struct CertificateWatch: Service {
    /// What the pass types are read from.
    let repository: any PassTypeStore
    /// Where their identities are loaded from.
    let identities: SigningIdentityCache
    /// Where the expiry gauge is kept.
    let metrics: ServerMetrics
    /// The time between two looks.
    package let interval: Duration
    let clock: any CofferClock
    let logger: Logger

    /// Creates the watch over the server's pass types, looking again every `interval` (a day by default).
    package init(
        repository: any PassTypeStore, identities: SigningIdentityCache, metrics: ServerMetrics,
        interval: Duration = .seconds(86_400), clock: any CofferClock = SystemClock(),
        logger: Logger = Logger(label: "coffer.server")
    ) {
        self.repository = repository
        self.identities = identities
        self.metrics = metrics
        self.interval = interval
        self.clock = clock
        self.logger = logger
    }

    /// Looks now and then every ``interval``, until graceful shutdown.
    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    _ = try await look()
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning(
                        "checking the pass types' certificates failed; trying again later",
                        metadata: ["error": "\(LoggedError.description(of: error))"])
                }
                try await Task.sleep(for: interval)
            }
        }
    }

    /// Judges every pass type's certificate now, sets its gauge and logs it; returns what it found, by pass type
    /// identifier. A pass type whose identity does not load is left to `/ready`, which says why.
    @discardableResult
    package func look() async throws -> [String: CertificateExpiry] {
        var found: [String: CertificateExpiry] = [:]
        for passType in try await repository.passTypes() {
            try Task.checkCancellation()
            guard let identity = try? await identities.identity(for: passType) else { continue }
            let expiry = CertificateExpiry(notValidAfter: identity.notValidAfter, now: clock.now)
            found[passType.passTypeIdentifier] = expiry
            metrics.certificateExpires(passTypeIdentifier: passType.passTypeIdentifier, at: expiry.notValidAfter)
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
        return found
    }
}
