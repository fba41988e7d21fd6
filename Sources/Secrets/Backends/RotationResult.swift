/// What ``EncryptedFileBackend/rotateKey(algorithm:progress:)`` or ``EncryptedFileBackend/rekey(to:progress:)``
/// did.
public struct RotationResult: Sendable, Hashable {
    /// How many items were sealed again (items already under the current key are not counted).
    public var resealed: Int
    /// The item files that could not be read under any of the store's keys and were set aside, so that they
    /// no longer stand in the way.
    public var quarantined: [QuarantinedItem]

    /// Creates a result.
    public init(resealed: Int, quarantined: [QuarantinedItem]) {
        self.resealed = resealed
        self.quarantined = quarantined
    }
}

/// An item file moved out of a store because it could not be read: tampered with, truncated, foreign, sealed
/// with a key the store does not have, or found under another item's name. Its bytes are kept, for inspection or
/// for a restore.
public struct QuarantinedItem: Sendable, Hashable {
    /// The file's name in the store's `items` directory.
    public var fileName: String
    /// Where it is now, relative to the store's directory (in `quarantine/`).
    public var location: String
    /// Why it could not be read.
    public var reason: SecretsError

    /// Creates a record of a quarantined file.
    public init(fileName: String, location: String, reason: SecretsError) {
        self.fileName = fileName
        self.location = location
        self.reason = reason
    }
}
