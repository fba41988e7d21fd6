import Foundation
import Secrets

/// A ``Secrets/SecretsBackend`` over the freedesktop.org Secret Service (gnome-keyring, KeePassXC, KWallet): the
/// Linux desktop's keyring, through libsecret.
///
/// libsecret is loaded when the process first uses the Secret Service (`libsecret-1.so.0`, or the file the
/// `COFFER_LIBSECRET` environment variable names), so building Coffer needs no system package. Where it is not
/// installed every call throws ``Secrets/SecretsError/unavailable(_:)`` with a message naming the package.
///
/// Items live in the default collection under the attributes ``SecretServiceAttributes`` describes, with values
/// stored as `application/octet-stream` so that any bytes survive. Items saved by Coffer are read by
/// `secret-tool lookup service S account A`, and items saved by `secret-tool store` are read by Coffer.
///
/// Errors tell the cases apart: no session bus or no Secret Service provider is
/// ``Secrets/SecretsError/unavailable(_:)`` (at once, or after ``Options/timeout`` at most), a locked collection
/// is ``Secrets/SecretsError/locked(_:)`` (a miss in a locked collection is never reported as "not found"), a
/// missing default collection is `unavailable`, and two items answering one query are
/// ``Secrets/SecretsError/ambiguousMatch(_:)``. Every D-Bus call has a timeout; the process shares one connection.
public final class SecretServiceBackend: SecretsBackend {
    /// How the backend names and bounds its items.
    public struct Options: Sendable {
        /// The attribute names (Coffer's and `secret-tool`'s by default).
        public var attributes: SecretServiceAttributes
        /// The most any one D-Bus call may take, in seconds.
        public var timeout: TimeInterval
        /// The largest value accepted, in bytes.
        public var maximumValueSize: Int

        /// Creates options; the defaults suit a desktop keyring.
        public init(
            attributes: SecretServiceAttributes = .coffer, timeout: TimeInterval = 5,
            maximumValueSize: Int = 2 * 1024 * 1024
        ) {
            self.attributes = attributes
            self.timeout = timeout
            self.maximumValueSize = maximumValueSize
        }
    }

    /// The options the backend was made with.
    public let options: Options
    private let client: any SecretServiceClient

    /// Creates a backend; it connects on first use.
    public convenience init(options: Options = Options()) {
        #if os(Linux)
            self.init(options: options, client: LibSecretClient(timeout: options.timeout))
        #else
            self.init(options: options, client: UnavailableSecretServiceClient())
        #endif
    }

    init(options: Options, client: any SecretServiceClient) {
        self.options = options
        self.client = client
    }

    /// Whether a Secret Service answers on the session bus, with an unlocked or locked default collection.
    ///
    /// Quick (one round trip, bounded by `timeout`); use it to choose a backend.
    public static func isReachable(timeout: TimeInterval = 2) -> Bool {
        (try? checkReachable(timeout: timeout)) != nil
    }

    /// Returns when a Secret Service answers on the session bus with a default collection (locked or not), and
    /// throws why not otherwise: libsecret is not installed, there is no session bus or no provider on it, or the
    /// keyring has no default collection.
    ///
    /// Quick (one round trip, bounded by `timeout`); use it to choose a backend and to tell the user why.
    ///
    /// - Throws: ``Secrets/SecretsError/unavailable(_:)`` with the reason.
    public static func checkReachable(timeout: TimeInterval = 2) throws(SecretsError) {
        do {
            _ = try SecretServiceBackend(options: Options(timeout: timeout)).client.isDefaultCollectionLocked()
        } catch let error as SecretsError {
            throw error
        } catch {
            throw .unavailable("the Secret Service could not be asked: \(error)")
        }
    }

    /// Stores `data`, replacing the item with the same attributes.
    ///
    /// - Throws: `locked` when the default collection is locked (nothing is written), `unavailable`, `tooLarge`,
    ///   `invalidIdentifier`.
    public func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws {
        try query.validate()
        guard data.count <= options.maximumValueSize else {
            throw SecretsError.tooLarge(byteCount: data.count, limit: options.maximumValueSize)
        }
        try requireUnlocked()
        try client.store(
            data,
            attributes: options.attributes.item(
                service: query.service, account: query.account, accessGroup: query.accessGroup),
            label: "\(query.service): \(query.account)")
    }

    /// Returns the item's bytes, or `nil` when there is no item and the collection is unlocked.
    ///
    /// - Throws: `locked` when the item or the collection is locked, `ambiguousMatch` when two items answer.
    public func read<Value>(_ query: SecretQuery<Value>) throws -> Data? {
        try query.validate()
        // With a group, every item found has it (the search matches it); without one, each item's own attributes
        // tell whether it belongs to another group.
        let found = try client.search(
            options.attributes.item(service: query.service, account: query.account, accessGroup: query.accessGroup),
            loadSecrets: true, loadAttributes: query.accessGroup == nil
        ).filter { options.attributes.matches($0.attributes, accessGroup: query.accessGroup) }
        guard let item = found.first else {
            try requireUnlocked()
            return nil
        }
        guard found.count == 1 else {
            throw SecretsError.ambiguousMatch("\(describe(query)) (\(found.count) Secret Service items)")
        }
        guard let secret = item.secret, !item.isLocked else {
            throw SecretsError.locked("the Secret Service item for \(describe(query))")
        }
        return secret
    }

    /// Deletes the item; returns whether there was one.
    ///
    /// - Throws: `locked` when the collection is locked (nothing is deleted).
    @discardableResult
    public func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool {
        try query.validate()
        try requireUnlocked()
        let attributes = options.attributes
        return try client.delete(
            attributes.item(service: query.service, account: query.account, accessGroup: query.accessGroup)
        ) { attributes.matches($0, accessGroup: query.accessGroup) } > 0
    }

    /// The accounts stored under `service` in `accessGroup`, sorted.
    ///
    /// - Throws: `locked` when the collection is locked, since a locked collection may hide its items.
    public func listAccounts(service: String, accessGroup: String?) throws -> [String] {
        try requireUnlocked()
        let attributes = options.attributes
        let items = try client.search(
            attributes.service(service, accessGroup: accessGroup), loadSecrets: false, loadAttributes: true)
        return Set(
            items.filter { attributes.matches($0.attributes, accessGroup: accessGroup) }
                .compactMap { $0.attributes[attributes.account] }
        ).sorted()
    }

    /// Locks the default collection, as a screen lock would; reads then throw `locked` until it is unlocked.
    public func lock() throws {
        try client.lockDefaultCollection()
    }

    /// libsecret's own `secret_service_lookup_sync` for an item, over the same connection and without Coffer's
    /// checks: the floor a ``read(_:)`` is compared with in `Benchmarks/`.
    @_spi(Benchmarking)
    public func libsecretLookup<Value>(_ query: SecretQuery<Value>) throws -> Data? {
        try client.lookup(
            options.attributes.item(service: query.service, account: query.account, accessGroup: query.accessGroup))
    }

    private func requireUnlocked() throws {
        if try client.isDefaultCollectionLocked() {
            throw SecretsError.locked("the Secret Service's default collection")
        }
    }

    private func describe<Value>(_ query: SecretQuery<Value>) -> String {
        "\(query.service)/\(query.account)" + (query.accessGroup.map { " in \($0)" } ?? "")
    }
}
