import Foundation
import Secrets

/// `UserDefaults` for the ``StorageDomain/userDefaults`` and ``StorageDomain/appGroupUserDefaults(identifier:)``
/// domains: the standard defaults, and one suite per app group.
///
/// Values are written as `Data` (their serializer's bytes) under the key's name. A value another part of the app
/// wrote directly (`defaults.set("abc", forKey: "token")`) is read as a binary property list holding that one
/// object, which ``Serializer/propertyList`` decodes: a legacy value can be declared as a key and migrated.
///
/// On Linux, Foundation keeps defaults in property lists under `$XDG_CONFIG_HOME` (see ``StorageLocations``); the
/// store flushes them after every change so that other processes see it.
public actor DefaultsValueStore {
    /// The largest value accepted: defaults are read whole at launch, so big values belong in files.
    public let maximumValueSize: Int
    private var suites: [String: UserDefaults] = [:]

    /// A store accepting values up to `maximumValueSize` bytes (512 KiB by default).
    public init(maximumValueSize: Int = 512 * 1024) {
        self.maximumValueSize = maximumValueSize
    }

    /// Stores `data` under `key` in `suite` (`nil`: the standard defaults).
    public func set(_ data: Data, forKey key: String, suite: String? = nil) throws {
        guard data.count <= maximumValueSize else {
            throw SecretsError.tooLarge(byteCount: data.count, limit: maximumValueSize)
        }
        let defaults = try self.defaults(suite)
        defaults.set(data, forKey: key)
        try flush(defaults, suite: suite)
    }

    /// The bytes under `key`, or `nil`.
    ///
    /// - Throws: `corruptData` when the object there cannot be expressed as a property list.
    public func data(forKey key: String, suite: String? = nil) throws -> Data? {
        guard let object = try defaults(suite).object(forKey: key) else { return nil }
        if let data = object as? Data { return data }
        do {
            return try PropertyListSerialization.data(fromPropertyList: [object], format: .binary, options: 0)
        } catch {
            throw SecretsError.corruptData("the defaults value '\(key)' (\(type(of: object)))")
        }
    }

    /// Removes `key`; returns whether it was there.
    @discardableResult
    public func remove(forKey key: String, suite: String? = nil) throws -> Bool {
        let defaults = try self.defaults(suite)
        guard defaults.object(forKey: key) != nil else { return false }
        defaults.removeObject(forKey: key)
        try flush(defaults, suite: suite)
        return true
    }

    /// Whether `key` holds a value.
    public func exists(forKey key: String, suite: String? = nil) throws -> Bool {
        try defaults(suite).object(forKey: key) != nil
    }

    /// The keys of `suite`'s own domain (not the global or registration domains), sorted.
    public func keys(suite: String? = nil) throws -> [String] {
        let name = suite ?? StorageLocations.defaultApplicationIdentifier
        return try defaults(suite).persistentDomain(forName: name).map { $0.keys.sorted() } ?? []
    }

    private func defaults(_ suite: String?) throws -> UserDefaults {
        guard let suite else { return .standard }
        if let defaults = suites[suite] { return defaults }
        try StorageLocations.validateAppGroup(suite)
        guard let defaults = UserDefaults(suiteName: suite) else {
            throw SecretsError.unavailable("the defaults suite \(suite) (is the app in that app group?)")
        }
        suites[suite] = defaults
        return defaults
    }

    private func flush(_ defaults: UserDefaults, suite: String?) throws {
        #if !canImport(Darwin)
            guard defaults.synchronize() else {
                throw SecretsError.unavailable("the defaults \(suite ?? "of the app") could not be written to disk")
            }
        #endif
    }
}
