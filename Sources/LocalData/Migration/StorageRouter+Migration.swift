import Foundation
import Logging

extension StorageRouter {
    /// Registers `migration`: it runs before the first read, write or removal of its proper key in this process.
    ///
    /// - Throws: ``StorageError/invalidConfiguration(key:reason:)`` when the legacy key is the proper key's very
    ///   place (same name and domain), or another migration already fills that key.
    public func register(_ migration: StorageMigration) throws(StorageError) {
        let name = migration.target.name
        guard !(migration.legacy.name == name && migration.legacy.domain == migration.target.domain) else {
            throw .invalidConfiguration(
                key: name, reason: "a legacy key in the same place as its proper key cannot be migrated")
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
        if try await read(at: target) != nil {
            return try await delete(at: source) ? .cleanedUp : .alreadyMigrated
        }
        guard let legacyBytes = try await read(at: source) else { return .nothingToMigrate }
        let legacyValue = try decode(legacyBytes, for: legacy)
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
        try await delete(at: source)
        logger.info("migrated a stored value", metadata: ["key": "\(key.name)", "from": "\(legacy.name)"])
        return .migrated
    }
}
