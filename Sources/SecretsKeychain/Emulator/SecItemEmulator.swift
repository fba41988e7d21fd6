import Foundation
import Secrets

/// An in-memory Keychain with the semantics Coffer relies on, for tests and for platforms without one.
///
/// It reproduces: the generic-password primary key (service, account, access group, synchronizable; an absent service
/// or account is empty), the internet-password one (server, protocol, authentication type, port, account, access group,
/// synchronizable), and `errSecDuplicateItem`; `errSecItemNotFound`; persistent references; match limits (and
/// `errSecParam` for data with `kSecMatchLimitAll`); synchronizable absent, true, false and any; access groups (an
/// absent group adds to ``defaultAccessGroup`` and matches every entitled group; an unentitled group is
/// `errSecMissingEntitlement`); `errSecParam` for a this-device-only or access-controlled item that would sync; a
/// device lock (``setLocked(_:)``): items readable only while unlocked answer `errSecInteractionNotAllowed`, and before
/// the first unlock since boot every item does; and the user's authentication: reading or updating an item whose access
/// control needs the user prompts (``prompts``) and takes the next scripted ``PromptResponse``, unless the query's
/// ``Secrets/AuthenticationContext`` authenticated already (`errSecInteractionNotAllowed` when it may not prompt,
/// `errSecAuthFailed` when denied, `errSecUserCanceled` when cancelled). An item bound to the current biometry
/// (`biometryCurrentSet`) is found by attribute queries but its data is `errSecItemNotFound` once the enrolment changes
/// (``changeBiometryEnrollment()``). It decides how an item is protected on its ``platform`` exactly as the live
/// Keychain client does: access-control flags the platform lacks are `errSecParam`, never dropped. Without a
/// keychain entitlement (`hasKeychainEntitlement: false`, an unsigned macOS tool), every call answers
/// `errSecMissingEntitlement`.
public final class SecItemEmulator: SecItemClient {
    private struct Key: Hashable {
        var itemClass: KeychainQuery.ItemClass
        var internet: InternetPasswordAttributes?
        var service: String
        var account: String
        var accessGroup: String
        var synchronizable: Bool
    }

    private struct Stored {
        var accessibility: AccessPolicy.Accessibility
        var accessControl: AccessPolicy.AccessControl
        var data: Data
        /// The biometric enrolment when the item was stored.
        var enrollment: Int
        /// The item's persistent reference, made when it is added and kept while it lives.
        var reference: Data
    }

    private struct State {
        var items: [Key: Stored] = [:]
        var isLocked = false
        var hasUnlockedSinceBoot = true
        var enrollment = 0
        var responses: [PromptResponse] = []
        var prompts: [Prompt] = []
    }

    /// What the emulated user does when a prompt shows.
    public enum PromptResponse: Hashable, Sendable {
        /// Authenticates.
        case approve
        /// Fails to authenticate (`errSecAuthFailed`).
        case deny
        /// Cancels the prompt (`errSecUserCanceled`).
        case cancel
    }

    /// A prompt the emulated device showed.
    public struct Prompt: Hashable, Sendable {
        /// The context's reason; empty without a context.
        public var reason: String
        /// The item's service.
        public var service: String
        /// The item's account.
        public var account: String
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

    /// Queues what the user does at the next prompts, in order; once they are used, prompts are approved.
    public func respondToPrompts(_ responses: PromptResponse...) {
        state.withLock { $0.responses.append(contentsOf: responses) }
    }

    /// The prompts shown so far, oldest first.
    public var prompts: [Prompt] { state.withLock { $0.prompts } }

    /// Emulates the user enrolling another face or finger: items bound to the current biometry become unreadable.
    public func changeBiometryEnrollment() {
        state.withLock { $0.enrollment += 1 }
    }

    // MARK: SecItemClient

    /// `SecItemAdd`.
    package func add(_ attributes: KeychainQuery) -> KeychainStatus {
        guard hasKeychainEntitlement else { return .missingEntitlement }
        guard case .success = attributes.protection(on: platform) else { return .param }
        // An absent service or account is stored empty, as the Keychain does.
        let (service, account) = (attributes.service ?? "", attributes.account ?? "")
        guard let data = attributes.data, attributes.synchronizable != .any, attributes.matchLimit == nil,
            (attributes.itemClass == .internetPassword) == (attributes.internet != nil)
        else { return .param }
        let group = attributes.accessGroup ?? defaultAccessGroup
        guard entitledAccessGroups.contains(group) else { return .missingEntitlement }
        let accessibility = attributes.accessibility ?? .whenUnlocked
        let synchronizable = attributes.synchronizable == .synchronizable
        if synchronizable && (accessibility.isThisDeviceOnly || !attributes.accessControl.isEmpty) { return .param }
        return state.withLock { state in
            guard Self.isAvailable(accessibility, in: state) else { return .interactionNotAllowed }
            let key = Key(
                itemClass: attributes.itemClass, internet: attributes.internet, service: service, account: account,
                accessGroup: group, synchronizable: synchronizable)
            guard state.items[key] == nil else { return .duplicateItem }
            state.items[key] = Stored(
                accessibility: accessibility, accessControl: attributes.accessControl, data: data,
                enrollment: state.enrollment, reference: withUnsafeBytes(of: UUID().uuid) { Data($0) })
            return .success
        }
    }

    /// `SecItemCopyMatching`.
    package func copyMatching(_ query: KeychainQuery) -> Result<[KeychainItem], KeychainStatusError> {
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
            if query.returnData {
                for (key, stored) in found {
                    guard Self.isAvailable(stored.accessibility, in: state) else {
                        return .failure(KeychainStatusError(.interactionNotAllowed))
                    }
                    if let refusal = Self.authorize(stored, key, query.authentication, in: &state) {
                        return .failure(KeychainStatusError(refusal))
                    }
                }
            }
            return .success(
                found.map { key, stored in
                    KeychainItem(
                        service: key.service, account: key.account, accessGroup: key.accessGroup,
                        synchronizable: key.synchronizable, accessibility: stored.accessibility,
                        data: query.returnData ? stored.data : nil, itemClass: key.itemClass, internet: key.internet,
                        persistentReference: query.returnPersistentReference ? stored.reference : nil)
                })
        }
    }

    /// `SecItemUpdate`.
    package func update(_ query: KeychainQuery, with changes: KeychainQuery) -> KeychainStatus {
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
                if let refusal = Self.authorize(stored, key, query.authentication, in: &state) { return refusal }
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
                let protectionChanged = changes.accessibility != nil || !changes.accessControl.isEmpty
                updated[newKey] = Stored(
                    accessibility: accessibility,
                    accessControl: protectionChanged ? changes.accessControl : stored.accessControl,
                    data: changes.data ?? stored.data,
                    enrollment: protectionChanged ? state.enrollment : stored.enrollment, reference: stored.reference)
            }
            state.items = updated
            return .success
        }
    }

    /// `SecItemDelete`.
    package func delete(_ query: KeychainQuery) -> KeychainStatus {
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
    ) -> [(key: Key, value: Stored)] {
        state.items.filter { key, stored in
            query.itemClass == key.itemClass
                && (query.persistentReference.map { $0 == stored.reference } ?? true)
                && (query.internet.map { wanted in key.internet.map { wanted.matches($0) } ?? false } ?? true)
                && (query.service.map { $0 == key.service } ?? true)
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

    /// `nil` when the item may be used by a query with `context`, else the status that refuses it.
    private static func authorize(
        _ stored: Stored, _ key: Key, _ context: AuthenticationContext?, in state: inout State
    ) -> KeychainStatus? {
        authorize(
            stored.accessControl, enrolledAs: stored.enrollment,
            prompt: Prompt(
                reason: context?.reason ?? "", service: key.service, account: key.account),
            context, in: &state)
    }

    /// `nil` when something protected by `accessControl` (made under the biometric enrolment `enrollment`) may be
    /// used with `context`, else the status that refuses it: what needs the user prompts (recorded as `prompt`)
    /// unless the context's session authenticated already; what is bound to a biometry that changed is gone.
    private static func authorize(
        _ accessControl: AccessPolicy.AccessControl, enrolledAs enrollment: Int, prompt: Prompt,
        _ context: AuthenticationContext?, in state: inout State
    ) -> KeychainStatus? {
        guard accessControl.requiresUserAuthentication else { return nil }
        if accessControl.contains(.biometryCurrentSet), enrollment != state.enrollment { return .itemNotFound }
        let session = context?.session { EmulatedAuthentication() }
        if session?.isAuthenticated == true { return nil }
        if context?.interaction == .notAllowed { return .interactionNotAllowed }
        state.prompts.append(prompt)
        let response = state.responses.isEmpty ? .approve : state.responses.removeFirst()
        switch response {
        case .approve:
            session?.isAuthenticated = true
            return nil
        case .deny: return .authFailed
        case .cancel: return .userCanceled
        }
    }

    /// The biometric enrolment now, for what is bound to it (a Secure Enclave key).
    var currentEnrollment: Int { state.withLock { $0.enrollment } }

    /// Whether the emulated device is unlocked now.
    var isUnlocked: Bool { state.withLock { !$0.isLocked } }

    /// `nil` when a key protected by `accessControl`, made under `enrollment`, may be used with `context` (its
    /// use prompting as an item's read does, recorded with the key's `label` as account), else the refusal.
    func authorizeKeyUse(
        _ accessControl: AccessPolicy.AccessControl, enrolledAs enrollment: Int, label: String,
        _ context: AuthenticationContext?
    ) -> KeychainStatus? {
        state.withLock { state in
            if state.isLocked { return .interactionNotAllowed }
            return Self.authorize(
                accessControl, enrolledAs: enrollment,
                prompt: Prompt(reason: context?.reason ?? "", service: "secure-enclave", account: label), context,
                in: &state)
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

/// The emulator's record of an ``Secrets/AuthenticationContext``'s authentication: whether its prompt succeeded.
final class EmulatedAuthentication: AuthenticationSession {
    private let authenticated = Locked(false)

    /// Whether the context's prompt succeeded and it has not been invalidated since.
    var isAuthenticated: Bool {
        get { authenticated.withLock { $0 } }
        set { authenticated.withLock { $0 = newValue } }
    }

    /// Forgets the authentication.
    func invalidate() { isAuthenticated = false }
}
