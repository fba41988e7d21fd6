import WalletServices

/// A row of `pass_registrations`: a device registered for a pass's updates, with its push token for the pass.
struct PassRegistrationRow: TableRow {
    /// The table the rows are in.
    static let table = "pass_registrations"

    /// The columns of `pass_registrations`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case deviceLibraryIdentifier = "device_library_identifier"
        case passID = "pass_id"
        case pushToken = "push_token"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case lastSeenAt = "last_seen_at"
    }

    /// The device's library identifier.
    var deviceLibraryIdentifier: String
    /// The pass the device registered for.
    var passID: String
    /// The device's push token for the pass.
    var pushToken: String
    /// When the device registered, in milliseconds.
    var createdAt: Int64
    /// When the registration was last renewed, in milliseconds.
    var updatedAt: Int64
    /// When the device last showed it is there (it registered, or APNs accepted a push to it), in milliseconds.
    var lastSeenAt: Int64?
}
