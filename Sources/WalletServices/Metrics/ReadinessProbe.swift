import Foundation
import Secrets
import WalletDocuments
import WalletPasses

/// Whether the server can do its work now, for `GET /ready`: the database answers within ``timeout``, and every pass
/// type's signing identity can be loaded from the secret store and has a certificate that has not expired. A
/// certificate that expires within ``CertificateExpiry/warningPeriod``, with no renewed one staged to take over by
/// then, leaves the server ready but degraded.
///
/// The database check is the pass types' list (a small table); each identity comes from the server's
/// ``SigningIdentityCache``, so a check after the first costs a read of that list. The reasons say what to fix and
/// name pass types by identifier and key path, never a key, token or password.
package struct ReadinessProbe: Sendable {
    /// What ``check()`` found.
    package enum Outcome: Hashable, Sendable {
        /// The database answered and every signing identity loaded.
        case ready
        /// Ready, with something to do soon (a certificate about to expire); each reason says what.
        case degraded(reasons: [String])
        /// Something the server needs is missing; each reason says what and what to do.
        case notReady(reasons: [String])
    }

    /// What the pass types are read from.
    package let repository: any PassTypeStore
    /// Where the signing identities are loaded from.
    package let identities: SigningIdentityCache
    /// How long the database, and then each identity, may take before the server counts as not ready.
    package let timeout: Duration
    /// What certificates' ends are judged against.
    package let clock: any CofferClock

    /// Creates a probe over the server's repository and identity cache.
    package init(
        repository: any PassTypeStore, identities: SigningIdentityCache, timeout: Duration = .seconds(2),
        clock: any CofferClock = SystemClock()
    ) {
        self.repository = repository
        self.identities = identities
        self.timeout = timeout
        self.clock = clock
    }

    /// Checks the database, then each pass type's signing identity.
    package func check() async -> Outcome {
        let repository = repository
        let passTypes: [PassType]
        switch await Self.answer(within: timeout, { try await repository.passTypes() }) {
        case .none:
            return .notReady(reasons: [
                "the database did not answer within \(Self.seconds(timeout)): check that it is running and reachable "
                    + "(DATABASE_URL) and not overloaded"
            ])
        case .failure(let error)?:
            return .notReady(reasons: [
                "the database is unavailable (\(LoggedError.description(of: error))):"
                    + " check that it is running and reachable (DATABASE_URL)"
            ])
        case .success(let list)?:
            passTypes = list
        }
        var reasons: [String] = []
        var warnings: [String] = []
        for passType in passTypes {
            let identities = identities
            let name = passType.passTypeIdentifier
            switch await Self.answer(within: timeout, { try await identities.signingEnd(of: passType) }) {
            case .success(let end)?:
                let expiry = CertificateExpiry(notValidAfter: end, now: clock.now)
                guard let reason = expiry.reason(passTypeIdentifier: name) else { continue }
                if expiry.isExpired { reasons.append(reason) } else { warnings.append(reason) }
            case .none:
                reasons.append(
                    "pass type \(name): its signing identity did not load within \(Self.seconds(timeout)) from the "
                        + "secret store")
            case .failure(let error)?:
                reasons.append(Self.reason(for: error, passType: passType))
            }
        }
        if !reasons.isEmpty { return .notReady(reasons: reasons + warnings) }
        return warnings.isEmpty ? .ready : .degraded(reasons: warnings)
    }

    /// What to tell the operator when `passType`'s identity failed to load with `error`.
    static func reason(for error: any Error, passType: PassType) -> String {
        let name = passType.passTypeIdentifier
        let importing = "import its certificate and key with `coffer admin pass-type import`"
        switch error {
        case WalletDocumentError.unreadableKey:
            return
                "pass type \(name): no readable signing identity at '\(passType.signingKeyPath)' in the secret store; "
                + importing
        case WalletDocumentError.identityMismatch(let expected, let found):
            return "pass type \(name): the identity stored at '\(passType.signingKeyPath)' is for \(found), not "
                + "\(expected); \(importing)"
        case let error as SecretsError:
            return "pass type \(name): the secret store cannot be read (\(error.description)); check its passphrase "
                + "or key file (COFFER_PASSPHRASE, COFFER_KEY_FILE)"
        default:
            return "pass type \(name): its signing identity cannot be loaded "
                + "(\(LoggedError.description(of: error))); \(importing)"
        }
    }

    /// `duration` as text for a person: "2 s", "0.5 s".
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// The result of `operation`, or `nil` when it has not finished after `timeout`. The operation goes on in the
    /// background (cancelled) after a timeout: a query stuck waiting for a connection cannot hold the probe.
    static func answer<Value: Sendable>(
        within timeout: Duration, _ operation: @escaping @Sendable () async throws -> Value
    ) async -> Result<Value, any Error>? {
        let pending = Locked<CheckedContinuation<Result<Value, any Error>?, Never>?>(nil)
        let tasks = Locked<(work: Task<Void, Never>?, timer: Task<Void, Never>?)>((nil, nil))
        return await withCheckedContinuation { continuation in
            pending.withLock { $0 = continuation }
            let work = Task {
                let result: Result<Value, any Error>
                do { result = .success(try await operation()) } catch { result = .failure(error) }
                pending.withLock { $0.take() }?.resume(returning: result)
                tasks.withLock { $0.timer }?.cancel()
            }
            let timer = Task {
                try? await Task.sleep(for: timeout)
                guard !Task.isCancelled, let continuation = pending.withLock({ $0.take() }) else { return }
                continuation.resume(returning: nil)
                tasks.withLock { $0.work }?.cancel()
            }
            tasks.withLock { $0 = (work, timer) }
        }
    }
}
