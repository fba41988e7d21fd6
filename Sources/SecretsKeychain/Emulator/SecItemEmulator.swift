import Foundation
import Secrets

/// An in-memory Keychain with the semantics Coffer relies on, for tests and for platforms without one.
///
/// It reproduces: the generic-password primary key (service, account, access group, synchronizable) and
/// `errSecDuplicateItem`; `errSecItemNotFound`; match limits (and `errSecParam` for data with
/// `kSecMatchLimitAll`); synchronizable absent, true, false and any; access groups (an absent group adds to
/// ``defaultAccessGroup`` and matches every entitled group; an unentitled group is `errSecMissingEntitlement`);
/// `errSecParam` for a this-device-only or access-controlled item that would sync; and a device lock
/// (``setLocked(_:)``): items readable only while unlocked answer `errSecInteractionNotAllowed`, and before the
/// first unlock since boot every item does. It follows ``KeychainQuery/protection(on:)`` for its ``platform``, as
/// ``LiveSecItemClient`` does: access-control flags the platform lacks are `errSecParam`, never dropped. Without a
/// keychain entitlement (`hasKeychainEntitlement: false`, an unsigned macOS tool), every call answers
/// `errSecMissingEntitlement`.
public final class SecItemEmulator: SecItemClient {
    private struct Key: Hashable {
        var service: String
        var account: String
        var accessGroup: String
        var synchronizable: Bool
    }

    private struct State {
        var items: [Key: (accessibility: AccessPolicy.Accessibility, data: Data)] = [:]
        var isLocked = false
        var hasUnlockedSinceBoot = true
    }

    /// The group an item without `kSecAttrAccessGroup` is added to (the app's first keychain access group).
    public let defaultAccessGroup: String
    /// The groups the emulated app is entitled to, the default one included.
    public let entitledAccessGroups: Set<String>
    /// The platform whose rules apply (access-control flags).
    public let platform: KeychainPlatform
    /// Whether the emulated process has a keychain entitlement at all.
    public let hasKeychainEntitlement: Bool
    private let state = Locked(State())

    /// Creates an empty keychain for an app with these access groups, on `platform`.
    public init(
        defaultAccessGroup: String = "TEAMID.dev.coffer.tests", otherAccessGroups: Set<String> = [],
        platform: KeychainPlatform = .iOS, hasKeychainEntitlement: Bool = true
    ) {
        self.defaultAccessGroup = defaultAccessGroup
        self.entitledAccessGroups = otherAccessGroups.union([defaultAccessGroup])
        self.platform = platform
        self.hasKeychainEntitlement = hasKeychainEntitlement
    }

    /// Locks or unlocks the emulated device; unlocking also counts as the first unlock since boot.
    public func setLocked(_ locked: Bool) {
        state.withLock {
            $0.isLocked = locked
            if !locked { $0.hasUnlockedSinceBoot = true }
        }
    }

    /// Emulates a restart: locked, and not unlocked since.
    public func reboot() {
        state.withLock {
            $0.isLocked = true
            $0.hasUnlockedSinceBoot = false
        }
    }

    /// How many items the keychain holds.
    public var count: Int { state.withLock { $0.items.count } }

    // MARK: SecItemClient

    /// `SecItemAdd`.
    public func add(_ attributes: KeychainQuery) -> KeychainStatus {
        guard hasKeychainEntitlement else { return .missingEntitlement }
        guard case .success = attributes.protection(on: platform) else { return .param }
        guard let service = attributes.service, let account = attributes.account, let data = attributes.data,
            attributes.synchronizable != .any, attributes.matchLimit == nil
        else { return .param }
        let group = attributes.accessGroup ?? defaultAccessGroup
        guard entitledAccessGroups.contains(group) else { return .missingEntitlement }
        let accessibility = attributes.accessibility ?? .whenUnlocked
        let synchronizable = attributes.synchronizable == .synchronizable
        if synchronizable && (accessibility.isThisDeviceOnly || !attributes.accessControl.isEmpty) { return .param }
        return state.withLock { state in
            guard Self.isAvailable(accessibility, in: state) else { return .interactionNotAllowed }
            let key = Key(service: service, account: account, accessGroup: group, synchronizable: synchronizable)
            guard state.items[key] == nil else { return .duplicateItem }
            state.items[key] = (accessibility, data)
            return .success
        }
    }

    /// `SecItemCopyMatching`.
    public func copyMatching(_ query: KeychainQuery) -> Result<[KeychainItem], KeychainStatusError> {
        guard hasKeychainEntitlement else { return .failure(KeychainStatusError(.missingEntitlement)) }
        if query.returnData && query.matchLimit == .all { return .failure(KeychainStatusError(.param)) }
        if let group = query.accessGroup, !entitledAccessGroups.contains(group) {
            return .failure(KeychainStatusError(.missingEntitlement))
        }
        return state.withLock { state in
            var found = Self.matches(query, in: state, groups: entitledAccessGroups)
            if query.matchLimit != .all { found = Array(found.prefix(1)) }
            guard !found.isEmpty else { return .failure(KeychainStatusError(.itemNotFound)) }
            guard state.hasUnlockedSinceBoot else { return .failure(KeychainStatusError(.interactionNotAllowed)) }
            if query.returnData, found.contains(where: { !Self.isAvailable($0.value.accessibility, in: state) }) {
                return .failure(KeychainStatusError(.interactionNotAllowed))
            }
            return .success(
                found.map { key, stored in
                    KeychainItem(
                        service: key.service, account: key.account, accessGroup: key.accessGroup,
                        synchronizable: key.synchronizable, accessibility: stored.accessibility,
                        data: query.returnData ? stored.data : nil)
                })
        }
    }

    /// `SecItemUpdate`.
    public func update(_ query: KeychainQuery, with changes: KeychainQuery) -> KeychainStatus {
        guard hasKeychainEntitlement else { return .missingEntitlement }
        guard case .success = changes.protection(on: platform) else { return .param }
        if let group = query.accessGroup, !entitledAccessGroups.contains(group) { return .missingEntitlement }
        if changes.synchronizable == .any || changes.service != nil || changes.account != nil
            || changes.accessGroup != nil
        {
            return .param
        }
        return state.withLock { state in
            let found = Self.matches(query, in: state, groups: entitledAccessGroups)
            guard !found.isEmpty else { return .itemNotFound }
            var updated = state.items
            for (key, stored) in found {
                guard Self.isAvailable(stored.accessibility, in: state) else { return .interactionNotAllowed }
                var newKey = key
                if let synchronizable = changes.synchronizable {
                    newKey.synchronizable = synchronizable == .synchronizable
                }
                let accessibility = changes.accessibility ?? stored.accessibility
                if newKey.synchronizable && (accessibility.isThisDeviceOnly || !changes.accessControl.isEmpty) {
                    return .param
                }
                updated.removeValue(forKey: key)
                guard updated[newKey] == nil else { return .duplicateItem }
                updated[newKey] = (accessibility, changes.data ?? stored.data)
            }
            state.items = updated
            return .success
        }
    }

    /// `SecItemDelete`.
    public func delete(_ query: KeychainQuery) -> KeychainStatus {
        guard hasKeychainEntitlement else { return .missingEntitlement }
        if let group = query.accessGroup, !entitledAccessGroups.contains(group) { return .missingEntitlement }
        return state.withLock { state in
            let found = Self.matches(query, in: state, groups: entitledAccessGroups)
            guard !found.isEmpty else { return .itemNotFound }
            for (key, _) in found { state.items.removeValue(forKey: key) }
            return .success
        }
    }

    // MARK: Semantics

    private static func matches(
        _ query: KeychainQuery, in state: State, groups: Set<String>
    ) -> [(key: Key, value: (accessibility: AccessPolicy.Accessibility, data: Data))] {
        state.items.filter { key, _ in
            (query.service.map { $0 == key.service } ?? true)
                && (query.account.map { $0 == key.account } ?? true)
                && (query.accessGroup.map { $0 == key.accessGroup } ?? groups.contains(key.accessGroup))
                && {
                    switch query.synchronizable {
                    case nil, .notSynchronizable?: return !key.synchronizable
                    case .synchronizable?: return key.synchronizable
                    case .any?: return true
                    }
                }()
        }
        .sorted {
            ($0.key.accessGroup, $0.key.account, $0.key.synchronizable ? 1 : 0)
                < ($1.key.accessGroup, $1.key.account, $1.key.synchronizable ? 1 : 0)
        }
    }

    /// Whether an item of this class can be decrypted in the device's current state.
    private static func isAvailable(_ accessibility: AccessPolicy.Accessibility, in state: State) -> Bool {
        switch accessibility {
        case .always, .alwaysThisDeviceOnly:
            return true
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly:
            return state.hasUnlockedSinceBoot
        case .whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly:
            return !state.isLocked
        }
    }
}
