import Foundation
import Logging
import NIOPosix
import Secrets
import WalletDocuments

/// Moves a pass type from one signing identity to the next without a restart: stores a new identity as the current
/// one or stages it beside it, switches to a staged one when it is due, and drops a replaced identity from the
/// secret store once its certificate has expired.
///
/// Every switch is one conditional write of the pass type's record (``PassTypeIdentityStore/updatePassType(_:replacing:)``):
/// servers read the record for each signature and push, so every replica signs with the new identity at once, and
/// of replicas switching together exactly one succeeds. Only paths the record held are deleted, after the record
/// stopped naming them.
package struct PassTypeIdentities: Sendable {
    /// When a new identity signs.
    package enum Activation: Hashable, Sendable {
        /// At once; the identity it replaces is kept until its certificate expires.
        case immediately
        /// Staged beside the current identity until `date` (by default when the current certificate expires, never
        /// before the new one's `notBefore`), or until `coffer admin pass-type activate`.
        case staged(activatingAt: Date?)
    }

    let store: any PassTypeIdentityStore
    let secrets: any SecretsDataStoring
    let cache: SigningIdentityCache
    let logger: Logger

    /// Creates the renewal over the pass types in `store` and their identities in `secrets` (cached by `cache`).
    package init(
        store: any PassTypeIdentityStore, secrets: any SecretsDataStoring, cache: SigningIdentityCache,
        logger: Logger
    ) {
        self.store = store
        self.secrets = secrets
        self.cache = cache
        self.logger = logger
    }

    /// Stores `identity` for `existing` as `activation` says and returns the record as written.
    ///
    /// - Throws: ``WalletServerError/conflict(_:)`` when another change to the pass type came first (nothing is
    ///   left behind).
    package func store(_ identity: SigningIdentity, for existing: PassType, activation: Activation, now: Date)
        async throws -> PassType
    {
        let path = try await storeNew(identity, passTypeIdentifier: existing.passTypeIdentifier)
        var updated = existing
        var displaced: [String?]
        switch activation {
        case .immediately:
            updated.signingKeyPath = path
            updated.retiredSigningKeyPath = existing.signingKeyPath
            updated.nextSigningKeyPath = nil
            updated.nextActivatesAt = nil
            displaced = [existing.retiredSigningKeyPath, existing.nextSigningKeyPath]
        case .staged(let date):
            let currentEnd = try? await cache.identity(for: existing).notValidAfter
            updated.nextSigningKeyPath = path
            updated.nextActivatesAt = max(date ?? currentEnd ?? now, identity.notValidBefore)
            displaced = [existing.nextSigningKeyPath]
        }
        guard try await store.updatePassType(updated, replacing: existing) else {
            _ = try? await withStore { try $0.deleteData(account: path) }
            throw Self.changedMeanwhile(existing)
        }
        await drop(displaced.compactMap { $0 })
        return updated
    }

    /// Keeps `identity` at a new path of its own under `passTypeIdentifier` and returns the path.
    package func storeNew(_ identity: SigningIdentity, passTypeIdentifier: String) async throws -> String {
        let path = "wallet/pass-types/\(passTypeIdentifier)/\(SecureRandom.hex(byteCount: 8))"
        try SecretPath.validate(path: path)
        try await withStore { try identity.save(to: $0, at: path) }
        return path
    }

    /// Sets when `passType`'s staged identity takes over (`date`, or now; never before its certificate's
    /// `notBefore`), and switches to it at once when that is not later than `now`.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` when no identity is staged; ``WalletServerError/conflict(_:)``
    ///   when another change came first.
    /// - Returns: The record as written.
    package func activate(_ passType: PassType, at date: Date?, now: Date) async throws -> PassType {
        guard let nextPath = passType.nextSigningKeyPath else {
            throw WalletServerError.notFound(
                "a next identity of \(passType.passTypeIdentifier) (stage one with `pass-type import --next` or "
                    + "`pass-type certificate --next`)")
        }
        let next = try await identity(at: nextPath, of: passType)
        var scheduled = passType
        scheduled.nextActivatesAt = max(date ?? now, next.notValidBefore)
        guard try await store.updatePassType(scheduled, replacing: passType) else {
            throw Self.changedMeanwhile(passType)
        }
        guard let activatesAt = scheduled.nextActivatesAt, activatesAt <= now else { return scheduled }
        guard let switched = try await promote(scheduled) else { throw Self.changedMeanwhile(passType) }
        return switched
    }

    /// Switches every pass type whose staged identity is due at `now` and loads; returns the pass types switched
    /// (here: a replica that lost the race to another switches nothing). A staged identity that no longer loads is
    /// left staged, logged as an error, and the current one keeps signing.
    @discardableResult
    package func activateDue(now: Date) async throws -> [PassType] {
        var switched: [PassType] = []
        for passType in try await store.passTypes() {
            guard let activatesAt = passType.nextActivatesAt, activatesAt <= now,
                let nextPath = passType.nextSigningKeyPath
            else { continue }
            do {
                _ = try await identity(at: nextPath, of: passType)
            } catch {
                logger.error(
                    "a pass type's staged identity is due but does not load; the current one keeps signing",
                    metadata: [
                        "pass_type": "\(passType.passTypeIdentifier)", "error": "\(LoggedError.description(of: error))",
                    ])
                continue
            }
            if let updated = try await promote(passType) { switched.append(updated) }
        }
        return switched
    }

    /// Deletes each retired identity whose certificate has expired by `now` (or that is gone from the store) once
    /// the record no longer names it; returns the pass types whose retired identity went. One that does not load
    /// is kept.
    @discardableResult
    package func dropExpiredRetired(now: Date) async throws -> [String] {
        var dropped: [String] = []
        for passType in try await store.passTypes() {
            guard let path = passType.retiredSigningKeyPath else { continue }
            let stored = try await withStore { store -> SigningIdentity?? in
                guard try store.readData(account: path) != nil else { return .some(nil) }
                return try? SigningIdentity(from: store, at: path)
            }
            guard case .some(let retired) = stored, retired.map({ $0.notValidAfter < now }) ?? true else { continue }
            var updated = passType
            updated.retiredSigningKeyPath = nil
            guard try await store.updatePassType(updated, replacing: passType) else { continue }
            await drop([path])
            dropped.append(passType.passTypeIdentifier)
        }
        return dropped
    }

    /// The identity at `path`, checked to be `passType`'s (through the cache, which reads the store off Swift
    /// concurrency's threads).
    package func identity(at path: String, of passType: PassType) async throws -> SigningIdentity {
        try await cache.identity(at: path, of: passType)
    }

    /// Makes `passType`'s staged identity the current one and retires the current one; `nil` when another change
    /// came first.
    private func promote(_ passType: PassType) async throws -> PassType? {
        guard let next = passType.nextSigningKeyPath else { return nil }
        var updated = passType
        updated.signingKeyPath = next
        updated.nextSigningKeyPath = nil
        updated.nextActivatesAt = nil
        updated.retiredSigningKeyPath = passType.signingKeyPath
        guard try await store.updatePassType(updated, replacing: passType) else { return nil }
        await drop([passType.retiredSigningKeyPath].compactMap { $0 })
        logger.notice(
            "a pass type signs with its next identity now", metadata: ["pass_type": "\(passType.passTypeIdentifier)"])
        return updated
    }

    /// Deletes identities the record no longer names; one that cannot be deleted now stays behind, unused.
    private func drop(_ paths: [String]) async {
        for path in paths {
            _ = try? await withStore { try $0.deleteData(account: path) }
            await cache.forget(path: path)
        }
    }

    /// Runs `body` with the secret store on a thread of `NIOThreadPool.singleton`: a store in PostgreSQL blocks.
    private func withStore<Result: Sendable>(_ body: @escaping @Sendable (any SecretsDataStoring) throws -> Result)
        async throws -> Result
    {
        let secrets = secrets
        return try await NIOThreadPool.singleton.runIfActive { try body(secrets) }
    }

    private static func changedMeanwhile(_ passType: PassType) -> WalletServerError {
        .conflict("a newer change to the pass type \(passType.passTypeIdentifier) (look again and retry)")
    }
}
