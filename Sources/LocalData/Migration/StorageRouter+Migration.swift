import Foundation
import Logging
import Secrets

extension StorageRouter {
    /// Registers `migration`: it runs before the first read, write or removal of its proper key in this process.
    ///
    /// A legacy key may name the proper key's very place (same name and domain) with another serializer or
    /// policy: a token kept in the clear that is now to be encrypted where it is. The value is then rewritten in
    /// place, in one atomic write.
    ///
    /// - Throws: ``StorageError/invalidConfiguration(key:reason:)`` when the legacy key is the proper key, or
    ///   another migration already fills that key.
    public func register(_ migration: StorageMigration) throws(StorageError) {
        let name = migration.target.name
        guard migration.legacy != migration.target else {
            throw .invalidConfiguration(key: name, reason: "the legacy key is the proper key itself")
        }
        guard migrations[name] == nil else {
            throw .invalidConfiguration(key: name, reason: "another migration already fills this key")
        }
        migrations[name] = migration
    }

    /// Runs `migration` now (registered or not).
    @discardableResult
    public func migrate(_ migration: StorageMigration) async throws(StorageError) -> StorageMigration.Outcome {
        try await migration.run(self)
    }

    /// Runs every registered migration that has not run in this process, in key-name order, calling `progress`
    /// after each. A failure stops the run with its error; what was moved stays moved, and running again resumes.
    @discardableResult
    public func migrateAll(progress: @Sendable (StorageMigrationProgress) -> Void = { _ in }) async throws(StorageError)
        -> StorageMigrationReport
    {
        var report = StorageMigrationReport()
        let names = migrations.keys.sorted()
        for (index, name) in names.enumerated() {
            report.outcomes[name] = try await runPendingMigration(into: name)
            progress(StorageMigrationProgress(completed: index + 1, total: names.count))
        }
        return report
    }

    /// Runs the registered migration into `name` unless it already ran in this process; concurrent callers wait
    /// for the one run.
    @discardableResult
    func runPendingMigration(into name: String) async throws(StorageError) -> StorageMigration.Outcome? {
        guard let migration = migrations[name] else { return nil }
        if let outcome = completedMigrations[name] { return outcome }
        let run: Task<StorageMigration.Outcome, any Error>
        if let pending = runningMigrations[name] {
            run = pending
        } else {
            run = Task { try await migration.run(self) }
            runningMigrations[name] = run
        }
        do {
            let outcome = try await run.value
            completedMigrations[name] = outcome
            runningMigrations[name] = nil
            return outcome
        } catch {
            runningMigrations[name] = nil
            throw error as? StorageError ?? .failed(key: name, reason: "\(error)")
        }
    }

    /// Moves the value of `legacy` into `key`: write, read back, then remove the legacy copy.
    func moveValue<Legacy: StorageKey, Key: StorageKey>(
        from legacy: Legacy, to key: Key, transform: @Sendable (Legacy.Value) throws -> Key.Value
    ) async throws(StorageError) -> StorageMigration.Outcome {
        let target = try prepare(key)
        let source = try prepare(legacy, checkingRegistration: false)
        if source.name == target.name, legacy.domain == key.domain {
            return try await upgradeInPlace(from: legacy, to: key, at: target, transform: transform)
        }
        if try await read(at: target) != nil {
            return try await delete(at: source) ? .cleanedUp : .alreadyMigrated
        }
        guard let legacyBytes = try await read(at: source) else { return .nothingToMigrate }
        try await write(transform, of: try decode(legacyBytes, for: legacy), to: key, at: target)
        try await delete(at: source)
        logger.info("migrated a stored value", metadata: ["key": "\(key.name)", "from": "\(legacy.name)"])
        return .migrated
    }

    /// Rewrites a value kept in its proper key's place in a legacy form (another serializer, no encryption) in the
    /// proper form. A value that already reads as the proper key's is left alone.
    private func upgradeInPlace<Legacy: StorageKey, Key: StorageKey>(
        from legacy: Legacy, to key: Key, at target: StoragePlacement,
        transform: @Sendable (Legacy.Value) throws -> Key.Value
    ) async throws(StorageError) -> StorageMigration.Outcome {
        let properError: StorageError
        do {
            guard let bytes = try await read(at: target) else { return .nothingToMigrate }
            _ = try decode(bytes, for: key)
            return .alreadyMigrated
        } catch {
            guard Self.mayBeLegacyForm(error) else { throw error }
            properError = error
        }
        let source = try prepare(legacy, checkingRegistration: false)
        guard let legacyBytes = try? await read(at: source), let legacyValue = try? decode(legacyBytes, for: legacy)
        else { throw properError }
        try await write(transform, of: legacyValue, to: key, at: target)
        logger.info("upgraded a stored value in place", metadata: ["key": "\(key.name)"])
        return .migrated
    }

    /// Converts a legacy value with `transform`, writes it as `key`'s, and reads it back; the legacy copy is never
    /// touched here, so a failure at any step leaves it in place.
    private func write<Legacy, Key: StorageKey>(
        _ transform: @Sendable (Legacy) throws -> Key.Value, of legacyValue: Legacy, to key: Key,
        at target: StoragePlacement
    ) async throws(StorageError) {
        let value: Key.Value
        do {
            value = try transform(legacyValue)
        } catch {
            throw .failed(key: key.name, reason: "the migration's transform failed: \(type(of: error))")
        }
        let bytes = try encode(value, for: key)
        try await write(bytes, at: target)
        guard try await read(at: target) == bytes else {
            throw .failed(key: key.name, reason: "the migrated value did not read back; the legacy value is kept")
        }
    }

    /// Whether reading a value as its proper key failed the way a legacy form of it fails: bytes that are not a
    /// value of the type, or not a sealed envelope.
    private static func mayBeLegacyForm(_ error: StorageError) -> Bool {
        switch error {
        case .deserializationFailed, .store(_, .corruptData), .store(_, .authenticationFailed): return true
        default: return false
        }
    }
}
