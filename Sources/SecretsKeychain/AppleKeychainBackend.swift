import Foundation
import Secrets

/// A ``Secrets/SecretsBackend`` over the Apple Keychain: generic-password items keyed by service (the query's
/// service), account (the secret's path) and access group, with the query's synchronizability, accessibility and
/// access-control flags, in the data-protection keychain on macOS too.
///
/// It reaches the device's Keychain on Apple platforms (`init(maximumValueSize:)`) or a ``SecItemEmulator`` in tests
/// and elsewhere (``init(emulator:maximumValueSize:)``), through the same four SecItem calls.
///
/// Semantics the Keychain leaves open, made exact:
/// - A query without an access group means the app's *default* group (found once, by adding and reading back a
///   probe item), never "any group", so the same path in two groups is two items.
/// - Saving updates the item in place when it exists (whatever its synchronizability) and adds it otherwise; it
///   never deletes first, so a failed save loses nothing.
/// - Reads match synchronizable and local items alike; two of them for one path are an ambiguous match.
/// - An access policy the platform cannot store as asked (`.watch` off macOS)
///   is `unsupported` before anything is written; the item is never stored with less protection.
/// - Reads and saves go through the query's ``Secrets/AuthenticationContext`` (`kSecUseAuthenticationContext`), so
///   one prompt serves every access made with the context until its reuse window ends.
/// - Statuses map to ``Secrets/SecretsError``: not found is `nil`/`false`; interaction not allowed is `locked` when
///   the device is locked (``isDeviceLocked()``), and `authenticationRequired` on an unlocked device, where only an
///   item that needs the user refuses it (the context may not prompt, or the app is not in front); a cancelled
///   prompt is `authenticationCancelled` and a failed one `authenticationDenied`; the data of an item bound to the
///   current biometry that is listed but not found is `biometryChanged`; a missing entitlement is `unavailable`,
///   naming the group; invalid attribute combinations are `unsupported`.
public final class AppleKeychainBackend: SecretsBackend, SecretsPolicyInspecting, SecretsExclusiveCreating {
    /// The service of the probe item that finds the default access group.
    static let probeService = "dev.coffer.default-access-group-probe"
    /// The service of the item whose data can be read only while the device is unlocked (``isDeviceLocked()``).
    static let lockProbeService = "dev.coffer.lock-probe"

    private let client: any SecItemClient
    /// The largest value accepted, in bytes.
    public let maximumValueSize: Int
    private let defaultGroup = Locked<String?>(nil)

    /// Creates a backend over `client`.
    package init(client: any SecItemClient, maximumValueSize: Int = 4 * 1024 * 1024) {
        self.client = client
        self.maximumValueSize = maximumValueSize
    }

    #if canImport(Security)
        /// Creates a backend over the device's Keychain.
        public convenience init(maximumValueSize: Int = 4 * 1024 * 1024) {
            self.init(client: LiveSecItemClient(), maximumValueSize: maximumValueSize)
        }
    #endif

    /// Creates a backend over an emulated Keychain, for tests and for platforms without one.
    public convenience init(emulator: SecItemEmulator, maximumValueSize: Int = 4 * 1024 * 1024) {
        self.init(client: emulator, maximumValueSize: maximumValueSize)
    }

    /// Saves `data`, updating the item in place or adding it.
    public func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws {
        let changes = try storedValue(data, for: query)
        var match = try itemQuery(query)
        match.synchronizable = .any
        match.authentication = query.authentication
        // Update first: an existing item keeps its place; only a missing one is added.
        for _ in 0..<2 {
            switch client.update(match, with: changes) {
            case .success:
                noteAuthenticated(query)
                return
            case .itemNotFound:
                var item = changes
                item.service = match.service
                item.account = match.account
                item.accessGroup = match.accessGroup
                let status = client.add(item)
                // Added by someone else between the two calls: update that one.
                if status == .duplicateItem { continue }
                try check(status, "save", query)
                return
            case let status:
                try check(status, "save", query)
            }
        }
        try check(client.update(match, with: changes), "save", query)
        noteAuthenticated(query)
    }

    /// Adds the item unless one (synced or not) is there already: `SecItemAdd`, which the Keychain refuses with
    /// `errSecDuplicateItem` for an item that exists, so the check and the write are one step.
    public func create<Value>(_ data: Data, for query: SecretQuery<Value>) throws -> Bool {
        var item = try storedValue(data, for: query)
        var other = try itemQuery(query)
        (item.service, item.account, item.accessGroup) = (other.service, other.account, other.accessGroup)
        // The other synchronizability is another item to the Keychain, but the same account to the store.
        other.synchronizable = .any
        other.matchLimit = .one
        other.returnAttributes = true
        if case .success = client.copyMatching(other) { return false }
        let status = client.add(item)
        if status == .duplicateItem { return false }
        try check(status, "create", query)
        return true
    }

    /// The attributes `save` and `create` store for `data` at `query`: its synchronizability and protection with the
    /// bytes, after checking the query, the size, and that the protection can be written as asked.
    ///
    /// - Throws: ``Secrets/SecretsError`` for an invalid query, a value too large, a this-device-only or
    ///   access-controlled item that would sync, or a flag the platform lacks (never stored weaker than asked).
    private func storedValue<Value>(_ data: Data, for query: SecretQuery<Value>) throws -> KeychainQuery {
        try query.validate()
        guard data.count <= maximumValueSize else {
            throw SecretsError.tooLarge(byteCount: data.count, limit: maximumValueSize)
        }
        let policy = query.accessPolicy
        if query.synchronizable && (policy.accessibility.isThisDeviceOnly || !policy.accessControl.isEmpty) {
            throw SecretsError.unsupported(
                "an item that is \(policy.accessibility.rawValue) or access-controlled cannot sync over iCloud; "
                    + "set synchronizable to false or choose a syncing accessibility")
        }
        let value = KeychainQuery(
            synchronizable: query.synchronizable ? .synchronizable : .notSynchronizable,
            accessibility: policy.accessibility, accessControl: policy.accessControl, data: data)
        // Never store an item weaker than asked (a flag the platform lacks would be dropped).
        if case .failure(let error) = value.protection(on: client.platform) {
            throw SecretsError.unsupported("\(Self.describe(query)): \(error.description)")
        }
        return value
    }

    /// Returns the item's bytes, or `nil`.
    public func read<Value>(_ query: SecretQuery<Value>) throws -> Data? {
        try query.validate()
        var match = try itemQuery(query)
        match.synchronizable = .any
        match.matchLimit = .all
        match.returnAttributes = true
        let items = try found(client.copyMatching(match), "read", query)
        guard let item = items.first else { return nil }
        guard items.count == 1 else {
            throw SecretsError.ambiguousMatch("\(items.count) Keychain items for \(Self.describe(query))")
        }
        var exact = try itemQuery(query)
        exact.synchronizable = item.synchronizable ? .synchronizable : .notSynchronizable
        exact.matchLimit = .one
        exact.returnData = true
        exact.authentication = query.authentication
        let result = client.copyMatching(exact)
        if case .failure(let error) = result, error.status == .itemNotFound,
            query.accessPolicy.accessControl.contains(.biometryCurrentSet)
        {
            // Listed a moment ago, and its data gone: the biometry it was bound to has changed.
            throw SecretsError.biometryChanged(item: "the Keychain item \(Self.describe(query))")
        }
        guard let data = try found(result, "read", query).first?.data else { return nil }
        noteAuthenticated(query)
        return data
    }

    /// Deletes the item (local and synchronizable alike); returns whether there was one.
    @discardableResult
    public func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool {
        try query.validate()
        var match = try itemQuery(query)
        match.synchronizable = .any
        let status = client.delete(match)
        if status == .itemNotFound { return false }
        try check(status, "delete", query)
        return true
    }

    /// The accounts stored under `service` in `accessGroup` (`nil`: the default group), sorted.
    public func listAccounts(service: String, accessGroup: String?) throws -> [String] {
        try storedAccessibility(service: service, accessGroup: accessGroup).keys.sorted()
    }

    /// Whether the device is locked now: the data of an empty item readable only while unlocked (kept in the
    /// default group, added on first use) cannot be read. The Keychain answers a locked device and an item that
    /// needs the user with the same status; this tells them apart.
    public func isDeviceLocked() -> Bool {
        let probe = KeychainQuery(
            service: Self.lockProbeService, account: "probe", accessibility: .whenUnlockedThisDeviceOnly, data: Data())
        let added = client.add(probe)
        if added == .interactionNotAllowed { return true }
        var read = KeychainQuery(service: probe.service, account: probe.account, returnData: true)
        read.matchLimit = .one
        if case .failure(let error) = client.copyMatching(read), error.status == .interactionNotAllowed { return true }
        return false
    }

    /// The accessibility each item of `service` in `accessGroup` was stored with (attributes only: nothing prompts).
    /// Access-control flags are not among what the Keychain returns.
    public func storedAccessibility(service: String, accessGroup: String?) throws
        -> [String: AccessPolicy.Accessibility]
    {
        let query = KeychainQuery(
            service: service, accessGroup: try accessGroup ?? defaultAccessGroup(), synchronizable: .any,
            matchLimit: .all, returnAttributes: true)
        let items = try found(client.copyMatching(query), "list", SecretQuery<Data>(service: service, account: "*"))
        return Dictionary(items.map { ($0.account, $0.accessibility) }, uniquingKeysWith: { first, _ in first })
    }

    /// The app's default access group: the one an item added without a group lands in.
    public func defaultAccessGroup() throws -> String {
        if let known = defaultGroup.withLock({ $0 }) { return known }
        let probe = KeychainQuery(
            service: Self.probeService, account: UUID().uuidString, accessibility: .afterFirstUnlockThisDeviceOnly,
            data: Data())
        let subject = SecretQuery<Data>(service: Self.probeService, account: "probe")
        try check(client.add(probe), "find the default access group", subject)
        defer { _ = client.delete(KeychainQuery(service: probe.service, account: probe.account)) }
        var lookup = KeychainQuery(service: probe.service, account: probe.account, returnAttributes: true)
        lookup.matchLimit = .one
        guard
            let group = try found(client.copyMatching(lookup), "find the default access group", subject).first?
                .accessGroup
        else {
            throw SecretsError.unavailable("the Keychain lost its probe item while finding the default access group")
        }
        defaultGroup.withLock { $0 = group }
        return group
    }

    // MARK: Mapping

    private func itemQuery<Value>(_ query: SecretQuery<Value>) throws -> KeychainQuery {
        KeychainQuery(
            service: query.service, account: query.account,
            accessGroup: try query.accessGroup ?? defaultAccessGroup())
    }

    /// Starts the reuse window of the query's context after an access that needed the user went through it.
    private func noteAuthenticated<Value>(_ query: SecretQuery<Value>) {
        guard query.accessPolicy.accessControl.requiresUserAuthentication else { return }
        query.authentication?.noteAuthenticated()
    }

    private func found<Value>(
        _ result: Result<[KeychainItem], KeychainStatusError>, _ operation: String, _ query: SecretQuery<Value>
    ) throws -> [KeychainItem] {
        switch result {
        case .success(let items): return items
        case .failure(let error) where error.status == .itemNotFound: return []
        case .failure(let error):
            try check(error.status, operation, query)
            return []
        }
    }

    private func check<Value>(_ status: KeychainStatus, _ operation: String, _ query: SecretQuery<Value>) throws {
        if let error = error(for: status, operation: operation, query: query) { throw error }
    }

    /// The ``Secrets/SecretsError`` a status met by `operation` on `query`'s item stands for, or `nil` for success;
    /// `errSecInteractionNotAllowed` is told apart with the lock probe.
    func error<Value>(for status: KeychainStatus, operation: String, query: SecretQuery<Value>) -> SecretsError? {
        // On an unlocked device, only an item that needs the user refuses the interaction.
        if status == .interactionNotAllowed, !isDeviceLocked() {
            return .authenticationRequired(item: "the Keychain item \(Self.describe(query))")
        }
        return Self.error(for: status, operation: operation, query: query)
    }

    /// The ``Secrets/SecretsError`` a status stands for, or `nil` for success.
    static func error<Value>(for status: KeychainStatus, operation: String, query: SecretQuery<Value>)
        -> SecretsError?
    {
        let item = describe(query)
        switch status {
        case .success:
            return nil
        case .interactionNotAllowed:
            return .locked("the Keychain (\(operation) \(item): the device is locked or the item needs the user)")
        case .userCanceled:
            return .authenticationCancelled(item: "the Keychain item \(item)")
        case .authFailed:
            return .authenticationDenied(item: "the Keychain item \(item)")
        case .missingEntitlement:
            let group = query.accessGroup.map { "'\($0)'" } ?? "its default group"
            return .unavailable(
                "the app is not entitled to the Keychain access group of \(item): add \(group) to the "
                    + "keychain-access-groups entitlement")
        case .notAvailable:
            return .unavailable("no Keychain is available to \(operation) \(item)")
        case .param:
            return .unsupported("the Keychain refused the attributes of \(item) together (errSecParam)")
        case .decode:
            return .corruptData("the Keychain item \(item)")
        case .duplicateItem:
            return .ambiguousMatch("\(item) (the Keychain reported a duplicate item)")
        default:
            return .unavailable("the Keychain failed to \(operation) \(item): \(status)")
        }
    }

    private static func describe<Value>(_ query: SecretQuery<Value>) -> String {
        "\(query.service)/\(query.account)" + (query.accessGroup.map { " in \($0)" } ?? "")
    }
}
