import Foundation
import Logging

/// A ``SecretsStoring`` that fans out to one or more backends, writes to a primary one, and can move items
/// into the primary as they are read.
///
/// - Saves go to the backend at ``Options/primaryIndex``.
/// - Reads try the backends in order and return the first value found. An error from any backend is thrown,
///   not skipped: a locked primary must not be papered over by an older copy elsewhere.
/// - With ``Options/migrateOnRead``, a value found in another backend is saved into the primary (and, with
///   ``Options/removeAfterMigration``, removed from where it was found once the primary holds it).
/// - Deletes remove the item from every backend, so that a migration cannot bring it back.
/// - ``listAccounts()`` is the sorted union of every backend's accounts for the configured service and group.
public struct AggregateSecretsStore: SecretsDataStoring {
    /// How the store uses its backends.
    public struct Options: Hashable, Sendable {
        /// The index of the backend that receives writes.
        public var primaryIndex: Int
        /// Whether a value read from a non-primary backend is saved into the primary.
        public var migrateOnRead: Bool
        /// Whether a migrated value is then removed from the backend it was read from.
        public var removeAfterMigration: Bool

        /// Creates options; the defaults write to the first backend and never migrate.
        public init(primaryIndex: Int = 0, migrateOnRead: Bool = false, removeAfterMigration: Bool = false) {
            self.primaryIndex = primaryIndex
            self.migrateOnRead = migrateOnRead
            self.removeAfterMigration = removeAfterMigration
        }
    }

    /// The backends, in read order.
    public let backends: [any SecretsBackend]
    /// The service, access group and policy every query uses.
    public let configuration: SecretsConfiguration
    /// How backends are used.
    public let options: Options
    private let logger: Logger

    /// Creates a store over `backends`.
    ///
    /// - Precondition: `backends` is not empty and `options.primaryIndex` is one of its indices.
    public init(
        backends: [any SecretsBackend],
        configuration: SecretsConfiguration = SecretsConfiguration(),
        options: Options = Options(),
        logger: Logger = Logger(label: "coffer.secrets")
    ) {
        precondition(!backends.isEmpty, "an AggregateSecretsStore needs at least one backend")
        precondition(backends.indices.contains(options.primaryIndex), "primaryIndex is not a backend's index")
        self.backends = backends
        self.configuration = configuration
        self.options = options
        self.logger = logger
    }

    /// Creates a store over a single backend.
    public init(backend: any SecretsBackend, configuration: SecretsConfiguration = SecretsConfiguration()) {
        self.init(backends: [backend], configuration: configuration)
    }

    private var primary: any SecretsBackend { backends[options.primaryIndex] }

    private func query(_ account: String) -> SecretQuery<Data> {
        SecretQuery(id: ServiceID(path: account), configuration: configuration)
    }

    // MARK: Typed access

    /// Encodes `secret` and saves it into the primary backend.
    public func save<C: SecretCoder>(_ secret: C) throws {
        try C.id.validate()
        let data: Data
        do {
            data = try secret.encode()
        } catch {
            throw SecretsError.encodingFailed(type: String(describing: C.self), reason: Self.safeReason(error))
        }
        try saveData(data, account: C.id.path)
    }

    /// Reads and decodes the secret at `id`.
    public func read<C: SecretCoder>(_ id: ServiceID<C>) throws -> C? {
        guard let data = try readData(account: id.path) else { return nil }
        do {
            return try C(decode: data)
        } catch {
            throw SecretsError.decodingFailed(
                account: id.path, type: String(describing: C.self), reason: Self.safeReason(error))
        }
    }

    /// Deletes the secret at `id` from every backend.
    public func delete<C: SecretCoder>(_ id: ServiceID<C>) throws {
        try deleteData(account: id.path)
    }

    /// The sorted union of every backend's accounts.
    public func listAccounts() throws -> [String] {
        var accounts = Set<String>()
        for backend in backends {
            accounts.formUnion(
                try backend.listAccounts(service: configuration.service, accessGroup: configuration.accessGroup))
        }
        return accounts.sorted()
    }

    // MARK: Byte access

    /// Saves raw bytes into the primary backend.
    public func saveData(_ data: Data, account: String) throws {
        try primary.save(data, for: query(account))
    }

    /// Reads raw bytes, trying each backend in order and migrating when configured to.
    public func readData(account: String) throws -> Data? {
        let query = query(account)
        try query.validate()
        for (index, backend) in backends.enumerated() {
            guard let data = try backend.read(query) else { continue }
            if options.migrateOnRead && index != options.primaryIndex {
                migrate(data, at: query, from: backend, index: index)
            }
            return data
        }
        return nil
    }

    /// Deletes the item from every backend; returns whether any held it.
    @discardableResult
    public func deleteData(account: String) throws -> Bool {
        let query = query(account)
        var deleted = false
        for backend in backends {
            deleted = try backend.delete(query) || deleted
        }
        return deleted
    }

    /// Copies a value into the primary; a failure leaves the value where it was and is only logged, because the
    /// read itself succeeded.
    private func migrate(_ data: Data, at query: SecretQuery<Data>, from source: any SecretsBackend, index: Int) {
        do {
            try primary.save(data, for: query)
            logger.info(
                "migrated a secret into the primary backend",
                metadata: ["account": "\(query.account)", "from-backend": "\(index)"])
        } catch {
            logger.warning(
                "could not migrate a secret into the primary backend; it stays where it is",
                metadata: ["account": "\(query.account)", "error": "\(error)"])
            return
        }
        guard options.removeAfterMigration else { return }
        do {
            // Only remove the old copy once the primary demonstrably holds the same bytes.
            if try primary.read(query) == data {
                try source.delete(query)
            }
        } catch {
            logger.warning(
                "migrated a secret but could not remove the old copy",
                metadata: ["account": "\(query.account)", "error": "\(error)"])
        }
    }

    /// A description of a coding error that cannot contain the value being coded.
    static func safeReason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)'" + Self.location(context.codingPath)
        case DecodingError.typeMismatch(let type, let context), DecodingError.valueNotFound(let type, let context):
            return "expected \(type)" + Self.location(context.codingPath)
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "the data is not valid JSON" : "invalid value" + location(context.codingPath)
        case is EncodingError:
            return "a value cannot be encoded"
        default:
            return String(describing: type(of: error))
        }
    }

    private static func location(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "" : " at '" + path.map(\.stringValue).joined(separator: ".") + "'"
    }
}
