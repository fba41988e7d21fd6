/// The four SecItem calls, over typed attribute dictionaries: the whole of what ``AppleKeychainBackend`` needs
/// from the Keychain.
///
/// ``LiveSecItemClient`` calls the Security framework on Apple platforms; ``SecItemEmulator`` reproduces the
/// Keychain's semantics anywhere, which is how the backend's attribute and error mapping are tested on Linux.
package protocol SecItemClient: Sendable {
    /// `SecItemAdd`.
    func add(_ attributes: KeychainQuery) -> KeychainStatus
    /// `SecItemCopyMatching`: the items found (one at most with ``KeychainQuery/MatchLimit/one`` or no limit), or
    /// the status that stopped it (`itemNotFound` when nothing matches).
    func copyMatching(_ query: KeychainQuery) -> Result<[KeychainItem], KeychainStatusError>
    /// `SecItemUpdate`: applies `changes` to every item `query` matches.
    func update(_ query: KeychainQuery, with changes: KeychainQuery) -> KeychainStatus
    /// `SecItemDelete`: removes every item `query` matches.
    func delete(_ query: KeychainQuery) -> KeychainStatus
    /// The platform whose Keychain the client reaches, for the access-control flags it supports.
    var platform: KeychainPlatform { get }
}

extension SecItemClient {
    /// The platform this code runs on.
    package var platform: KeychainPlatform { .current }
}

/// A failed SecItem call's status, as an error.
package struct KeychainStatusError: Error, Hashable, Sendable {
    /// The status.
    package let status: KeychainStatus

    /// Wraps a status.
    package init(_ status: KeychainStatus) { self.status = status }
}
