import Foundation

/// A move of a value from a legacy key (another name, domain or serializer: a token an old version kept in
/// UserDefaults, say) into its proper key.
///
/// Registered with a router (``StorageRouter/register(_:)-(StorageMigration)``), it runs before the first read, write or
/// removal of the proper key; ``StorageRouter/migrateAll(progress:)`` runs every registered migration at once.
/// A move writes the new value, reads it back, and only then removes the legacy one, so a process killed at any
/// point loses nothing: the next run finds the value in one place or the other (or both, and clears the legacy
/// copy).
///
/// ```swift
/// let legacyToken = StorageKeys.Key<String>(
///     "token", domain: .userDefaults, serializer: .propertyList, owner: "Networking",
///     description: "The API token as version 1 kept it.")
/// await router.register(StorageMigration(from: legacyToken, to: StorageKeys.apiToken))
/// ```
public struct StorageMigration: Sendable {
    /// What running a migration found and did.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// The legacy value was moved.
        case migrated
        /// The value was already in its proper key, and no legacy copy was left.
        case alreadyMigrated
        /// The value was already in its proper key; a legacy copy left by an interrupted run was removed.
        case cleanedUp
        /// There was no value in either place.
        case nothingToMigrate
    }

    /// The legacy key's metadata.
    public let legacy: StorageKeyDescriptor
    /// The proper key's metadata.
    public let target: StorageKeyDescriptor
    let run: @Sendable (StorageRouter) async throws(StorageError) -> Outcome

    /// Moves values from `legacy` to `key`, converting each with `transform`.
    public init<Legacy: StorageKey, Key: StorageKey>(
        from legacy: Legacy, to key: Key, transform: @escaping @Sendable (Legacy.Value) throws -> Key.Value
    ) {
        self.legacy = legacy.descriptor
        self.target = key.descriptor
        self.run = { router async throws(StorageError) in
            try await router.moveValue(from: legacy, to: key, transform: transform)
        }
    }

    /// Moves values from `legacy` to `key`, which hold the same type.
    public init<Legacy: StorageKey, Key: StorageKey>(from legacy: Legacy, to key: Key)
    where Legacy.Value == Key.Value {
        self.init(from: legacy, to: key, transform: { $0 })
    }
}

/// What ``StorageRouter/migrateAll(progress:)`` did, by proper key name.
public struct StorageMigrationReport: Sendable, Hashable, Codable {
    /// Each migration's outcome, by the name of the key it fills.
    public var outcomes: [String: StorageMigration.Outcome] = [:]

    /// The names of the keys whose values were moved by this run.
    public var migrated: [String] { outcomes.filter { $0.value == .migrated }.keys.sorted() }
}

/// How far a bulk migration is.
public struct StorageMigrationProgress: Sendable, Hashable {
    /// Migrations run so far.
    public var completed: Int
    /// Migrations registered.
    public var total: Int
}
