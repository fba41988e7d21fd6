import Foundation
import Logging
import Secrets

/// The single entry point for everything an app persists: it reads each key's metadata and sends the value to
/// the right domain, serialized, protected and synced as the key says.
///
/// ```swift
/// try await StorageRouter.shared.set(token, for: StorageKeys.apiToken)
/// let token = try await StorageRouter.shared.get(StorageKeys.apiToken)
/// ```
///
/// Every error is a ``StorageError``; none carries a value. The router is an actor, and each domain has a value store
/// actor of its own (``KeychainValueStore``, ``ValueSealer``, ``FileValueStore``, ``DefaultsValueStore``,
/// ``WatchSyncStore``) over Coffer's secret stores.
public actor StorageRouter: StorageProviding {
    /// The app's router, with the platform's defaults.
    public static let shared = StorageRouter()

    /// What the router was built from.
    public nonisolated let configuration: StorageConfiguration
    /// The keychain domain's store.
    public nonisolated let keychain: KeychainValueStore
    /// What seals values for the domains that do not encrypt.
    public nonisolated let encryption: ValueSealer
    /// The file domains' store.
    public nonisolated let files: FileValueStore
    /// The defaults domains' store.
    public nonisolated let defaults: DefaultsValueStore
    /// What syncs values to the paired watch.
    public nonisolated let sync: WatchSyncStore

    var logger: Logger { configuration.logger }
    private var registeredKeys: [String: StorageKeyDescriptor] = [:]
    private var reportedUnregisteredKeys: Set<String> = []
    /// Where each key used so far goes: working it out (validation, directories) costs more than a read.
    private var placements: [StorageKeyDescriptor: StoragePlacement] = [:]
    var migrations: [String: StorageMigration] = [:]
    var runningMigrations: [String: Task<StorageMigration.Outcome, any Error>] = [:]
    var completedMigrations: [String: StorageMigration.Outcome] = [:]

    /// A router built from `configuration`.
    public init(configuration: StorageConfiguration = StorageConfiguration()) {
        self.configuration = configuration
        let files = FileValueStore(
            service: configuration.applicationIdentifier, maximumValueSize: configuration.maximumFileValueSize,
            logger: configuration.logger)
        self.files = files
        self.keychain = KeychainValueStore(
            store: configuration.keychainStore, service: configuration.applicationIdentifier,
            accessGroup: configuration.keychainAccessGroup, maximumInlineSize: configuration.maximumKeychainValueSize,
            overflowDirectory: configuration.locations.keychainOverflowDirectory, files: files,
            backend: configuration.keychainBackend)
        do {
            if try configuration.locations.moveLegacyKeychainOverflowStore() {
                configuration.logger.notice(
                    "moved the keychain overflow store out of Documents",
                    metadata: ["to": "\(configuration.locations.keychainOverflowDirectory.path)"])
            }
        } catch {
            // Values in the store stay where they are; reads of them fail as they would with a missing file.
            configuration.logger.error(
                "the keychain overflow store could not be moved out of Documents", metadata: ["error": "\(error)"])
        }
        self.encryption = ValueSealer(providers: configuration.keyMaterialProviders)
        self.defaults = DefaultsValueStore(maximumValueSize: configuration.maximumDefaultsValueSize)
        self.sync = WatchSyncStore(transport: configuration.syncTransport)
    }

    // MARK: Values

    /// Stores `value` for `key`; an ``SyncPolicy/automaticSmall`` key is then sent to the watch (a watch that
    /// cannot be reached is logged, and gets the value with the next successful send). A value too big to sync is
    /// refused before it is stored.
    public func set<Key: StorageKey>(_ value: Key.Value, for key: Key) async throws(StorageError) {
        let placement = try prepare(key)
        try await runPendingMigration(into: key.name)
        let bytes = try encode(value, for: key)
        let syncsNow = key.syncPolicy == .automaticSmall && configuration.platform == .phone
        if syncsNow { try await sync.check(bytes, for: key.name, policy: .automaticSmall) }
        try await write(bytes, at: placement)
        if syncsNow {
            await syncAutomatically(key.name) { () async throws(StorageError) in
                try await sync.send(bytes, for: key.name, policy: .automaticSmall)
            }
        }
    }

    /// The value of `key`, or `nil`. A registered migration into `key` runs first, once per process.
    public func get<Key: StorageKey>(_ key: Key) async throws(StorageError) -> Key.Value? {
        let placement = try prepare(key)
        try await runPendingMigration(into: key.name)
        guard let bytes = try await read(at: placement) else { return nil }
        return try decode(bytes, for: key)
    }

    /// Removes the value of `key` (and from the watch's context, for a synced key).
    public func remove<Key: StorageKey>(_ key: Key) async throws(StorageError) {
        let placement = try prepare(key)
        try await runPendingMigration(into: key.name)
        try await delete(at: placement)
        if key.syncPolicy == .automaticSmall, configuration.platform == .phone {
            await syncAutomatically(key.name) { () async throws(StorageError) in try await sync.remove(key.name) }
        }
    }

    /// Whether `key` holds a value. A registered migration into `key` runs first.
    public func exists<Key: StorageKey>(_ key: Key) async throws(StorageError) -> Bool {
        let placement = try prepare(key)
        try await runPendingMigration(into: key.name)
        return try await read(at: placement) != nil
    }

    /// Sends `key`'s current value to the watch now (a missing value is removed from the watch's context).
    ///
    /// - Throws: ``StorageError/invalidConfiguration(key:reason:)`` for a key that never syncs,
    ///   ``StorageError/syncFailed(key:reason:)`` when nothing carried it.
    public func sync<Key: StorageKey>(_ key: Key) async throws(StorageError) {
        let placement = try prepare(key)
        guard key.syncPolicy != .never else {
            throw .invalidConfiguration(key: key.name, reason: "its sync policy is never")
        }
        if let bytes = try await read(at: placement) {
            try await sync.send(bytes, for: key.name, policy: key.syncPolicy)
        } else {
            try await sync.remove(key.name)
        }
    }

    // MARK: Catalogs

    /// Registers `catalog`: from now on, using a key that no registered catalog lists is reported per the
    /// configuration's ``UnregisteredKeyPolicy``.
    ///
    /// - Throws: ``StorageError/invalidCatalog(_:)`` listing every problem (duplicate names, within the catalog or
    ///   with keys registered before; missing descriptions; inconsistent metadata). Nothing is registered then.
    public func register(_ catalog: some StorageKeyCatalog) throws(StorageError) {
        var problems = catalog.validationErrors
        for descriptor in catalog.descriptors {
            if let known = registeredKeys[descriptor.name], known != descriptor {
                problems.append(.duplicateKey(descriptor.name))
            }
        }
        guard problems.isEmpty else { throw .invalidCatalog(problems) }
        for descriptor in catalog.descriptors {
            registeredKeys[descriptor.name] = descriptor
        }
    }

    /// The keys of every registered catalog.
    public var registeredDescriptors: [StorageKeyDescriptor] {
        registeredKeys.values.sorted { $0.name < $1.name }
    }

    /// The catalog report of every registered key.
    public var catalogReport: StorageCatalogReport { StorageCatalogReport(Array(registeredKeys.values)) }

    // MARK: Encrypted file stores

    /// Re-encrypts every value in the encrypted file store that holds `key` under a fresh data key (optionally
    /// with another cipher), crash-safe: an interrupted rotation leaves every value readable and is finished by
    /// the next one. `progress` is called after each value.
    ///
    /// - Returns: How many values were re-encrypted, and the unreadable files that were set aside (see
    ///   ``Secrets/RotationResult``).
    @discardableResult
    public func rotateKey<Key: StorageKey>(
        for key: Key, algorithm: EncryptionAlgorithm? = nil,
        progress: @escaping @Sendable (EncryptedFileBackend.RotationProgress) -> Void = { _ in }
    ) async throws(StorageError) -> RotationResult {
        let (directory, encryption) = try await encryptedStore(of: key)
        return try await performing(key.name) {
            try await files.rotateKey(in: directory, encryption: encryption, algorithm: algorithm, progress: progress)
        }
    }

    /// Moves the encrypted file store that holds `key` under a new master key protected by `material`,
    /// re-encrypting every value: what revokes key material that leaked, which ``changeKeyMaterial(for:to:)``
    /// does not (an old copy of the store still opens with the old material). Crash-safe; after an interruption,
    /// the store opens with `material` and running this again finishes it. Afterwards the key's provider must
    /// supply `material`.
    @discardableResult
    public func rekey<Key: StorageKey>(
        for key: Key, to material: KeyMaterial,
        progress: @escaping @Sendable (EncryptedFileBackend.RotationProgress) -> Void = { _ in }
    ) async throws(StorageError) -> RotationResult {
        let (directory, encryption) = try await encryptedStore(of: key)
        return try await performing(key.name) {
            try await files.rekey(in: directory, encryption: encryption, to: material.keySource, progress: progress)
        }
    }

    /// Re-wraps the encrypted file store that holds `key` under `material` (a new passphrase, say); the values
    /// are untouched. Afterwards the key's provider must supply `material`.
    public func changeKeyMaterial<Key: StorageKey>(for key: Key, to material: KeyMaterial) async throws(StorageError) {
        let (directory, encryption) = try await encryptedStore(of: key)
        try await performing(key.name) {
            try await files.changeKey(in: directory, encryption: encryption, to: material.keySource)
        }
    }

    private func encryptedStore(of key: some StorageKey) async throws(StorageError)
        -> (URL, FileValueStore.Encryption)
    {
        let placement = try prepare(key)
        guard case .files(let directory, let plan?) = placement.store else {
            throw .invalidConfiguration(key: key.name, reason: "it is not in the encrypted file domain")
        }
        guard let encryption = try await fileEncryption(plan, for: key.name) else {
            throw .invalidConfiguration(key: key.name, reason: "it is not in the encrypted file domain")
        }
        return (directory, encryption)
    }

    // MARK: Steps

    /// Checks `key` (platform, catalog, metadata) and works out where it goes.
    func prepare(_ key: some StorageKey, checkingRegistration: Bool = true) throws(StorageError) -> StoragePlacement {
        guard configuration.platform.allows(key.availability) else {
            throw .unavailableOnPlatform(key: key.name, availability: key.availability)
        }
        let descriptor = key.descriptor
        if checkingRegistration { try checkRegistration(of: descriptor) }
        if let placement = placements[descriptor] { return placement }
        let placement = try StoragePlacement(descriptor, locations: configuration.locations)
        if placements.count >= 1024 { placements.removeAll() }
        placements[descriptor] = placement
        return placement
    }

    private func checkRegistration(of descriptor: StorageKeyDescriptor) throws(StorageError) {
        guard !registeredKeys.isEmpty, registeredKeys[descriptor.name] != descriptor else { return }
        let problem =
            registeredKeys[descriptor.name] == nil
            ? "is not in any registered catalog" : "differs from its registered description"
        switch configuration.unregisteredKeyPolicy {
        case .ignore:
            return
        case .reject:
            throw .unregisteredKey(descriptor.name)
        case .report(let handler):
            if reportedUnregisteredKeys.insert(descriptor.name).inserted { handler(descriptor) }
        case .assertInDebug:
            assertionFailure("the storage key '\(descriptor.name)' \(problem)")
            if reportedUnregisteredKeys.insert(descriptor.name).inserted {
                logger.warning("storage key \(problem)", metadata: ["key": "\(descriptor.name)"])
            }
        }
    }

    func encode<Key: StorageKey>(_ value: Key.Value, for key: Key) throws(StorageError) -> Data {
        do {
            return try key.serializer.encode(value)
        } catch {
            throw .serializationFailed(key: key.name, serializer: key.serializer.name, reason: Self.reason(error))
        }
    }

    func decode<Key: StorageKey>(_ bytes: Data, for key: Key) throws(StorageError) -> Key.Value {
        do {
            return try key.serializer.decode(bytes)
        } catch {
            throw .deserializationFailed(key: key.name, valueType: "\(Key.Value.self)", reason: Self.reason(error))
        }
    }

    /// Seals (if the key's policy asks) and stores serialized bytes.
    func write(_ bytes: Data, at placement: StoragePlacement) async throws(StorageError) {
        let name = placement.name
        let stored: Data
        if let sealing = placement.sealing {
            stored = try await performing(name) {
                try await encryption.seal(
                    bytes, algorithm: sealing.algorithm, keyDerivation: sealing.keyDerivation, source: sealing.source,
                    context: name)
            }
        } else {
            stored = bytes
        }
        switch placement.store {
        case .defaults(let suite):
            try await performing(name) { try await defaults.set(stored, forKey: name, suite: suite) }
        case .keychain(let accessPolicy):
            try await performing(name) { try await keychain.set(stored, account: name, accessPolicy: accessPolicy) }
        case .files(let directory, let plan):
            let encryption = try await fileEncryption(plan, for: name)
            try await performing(name) {
                try await files.write(stored, name: name, in: directory, encryption: encryption)
            }
        }
    }

    /// Reads (and opens, if sealed) the serialized bytes, or `nil`.
    func read(at placement: StoragePlacement) async throws(StorageError) -> Data? {
        let name = placement.name
        let stored: Data?
        switch placement.store {
        case .defaults(let suite):
            stored = try await performing(name) { try await defaults.data(forKey: name, suite: suite) }
        case .keychain:
            stored = try await performing(name) { try await keychain.get(account: name) }
        case .files(let directory, let plan):
            let encryption = try await fileEncryption(plan, for: name)
            stored = try await performing(name) {
                try await files.read(name: name, in: directory, encryption: encryption)
            }
        }
        guard let stored else { return nil }
        guard let sealing = placement.sealing else { return stored }
        return try await performing(name) {
            try await encryption.open(stored, source: sealing.source, context: name)
        }
    }

    /// Removes the stored bytes; returns whether there were any.
    @discardableResult
    func delete(at placement: StoragePlacement) async throws(StorageError) -> Bool {
        let name = placement.name
        switch placement.store {
        case .defaults(let suite):
            return try await performing(name) { try await defaults.remove(forKey: name, suite: suite) }
        case .keychain:
            return try await performing(name) { try await keychain.delete(account: name) }
        case .files(let directory, let plan):
            let encryption = try await fileEncryption(plan, for: name)
            return try await performing(name) {
                try await files.delete(name: name, in: directory, encryption: encryption)
            }
        }
    }

    /// What opens an encrypted file store: the source's material, checked against the derivation (`nil` for a
    /// plain store).
    private func fileEncryption(_ plan: StoragePlacement.Encryption?, for name: String) async throws(StorageError)
        -> FileValueStore.Encryption?
    {
        guard let plan else { return nil }
        let material = try await performing(name) { try await encryption.keyMaterial(for: plan.source) }
        guard material.suits(plan.keyDerivation) else {
            throw .keyMaterialMismatch(source: plan.source, keyDerivation: plan.keyDerivation)
        }
        var iterations = EncryptedFileBackend.recommendedIterations
        if case .pbkdf2(let count) = plan.keyDerivation { iterations = count }
        return FileValueStore.Encryption(algorithm: plan.algorithm, key: material.keySource, iterations: iterations)
    }

    private func syncAutomatically(_ name: String, _ send: () async throws(StorageError) -> Void) async {
        do {
            try await send()
        } catch {
            logger.notice(
                "value not synced to the watch yet", metadata: ["key": "\(name)", "reason": "\(error.description)"])
        }
    }

    /// Runs `body`, turning whatever it throws into a ``StorageError`` about `name`.
    func performing<Result>(_ name: String, _ body: () async throws -> Result) async throws(StorageError) -> Result {
        do {
            return try await body()
        } catch let error as StorageError {
            throw error
        } catch let error as SecretsError {
            throw .store(key: name, error)
        } catch {
            throw .failed(key: name, reason: Self.reason(error))
        }
    }

    /// A serializer's or store's error, as text for a ``StorageError``.
    private static func reason(_ error: any Error) -> String {
        switch error {
        case let error as DecodingError:
            switch error {
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
                .valueNotFound(_, let context):
                return context.debugDescription
            @unknown default:
                return "\(error)"
            }
        case let error as EncodingError:
            // The error's own description would show the value; its context does not.
            if case .invalidValue(_, let context) = error { return context.debugDescription }
            return "the value could not be encoded"
        default:
            return "\(error)"
        }
    }
}
