import Foundation

/// An item a Secret Service search found.
struct SecretServiceItem: Sendable {
    /// Its attributes.
    var attributes: [String: String]
    /// Its value, or `nil` when the item is locked (or its value was not asked for).
    var secret: Data?
    /// Whether the item is locked.
    var isLocked: Bool
}

/// The Secret Service operations the backend needs, each bounded by a timeout.
///
/// On Linux, ``LibSecretClient`` talks to the real service through libsecret; elsewhere there is no Secret
/// Service and every call throws ``Secrets/SecretsError/unavailable(_:)``.
protocol SecretServiceClient: Sendable {
    /// The items whose attributes include `attributes`, with their values when `loadSecrets` is set and their own
    /// attributes when `loadAttributes` is (otherwise an item's attributes are reported as `attributes`).
    func search(_ attributes: [String: String], loadSecrets: Bool, loadAttributes: Bool) throws
        -> [SecretServiceItem]
    /// libsecret's own lookup of the first item whose attributes include `attributes`: the baseline a read is
    /// measured against.
    func lookup(_ attributes: [String: String]) throws -> Data?
    /// Stores `value` in the default collection under exactly `attributes`, replacing an item with the same ones.
    func store(_ value: Data, attributes: [String: String], label: String) throws
    /// Deletes the items whose attributes include `attributes` and satisfy `isMatch`; returns how many.
    func delete(_ attributes: [String: String], where isMatch: ([String: String]) -> Bool) throws -> Int
    /// Whether the default collection is locked; throws `unavailable` when there is no default collection.
    func isDefaultCollectionLocked() throws -> Bool
    /// Locks the default collection (as a screen lock would).
    func lockDefaultCollection() throws
}
