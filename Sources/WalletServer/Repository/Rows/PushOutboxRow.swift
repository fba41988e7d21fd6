import Foundation

/// A row of `push_outbox`: a push still to send to a device registered for a pass.
struct PushOutboxRow: TableRow {
    /// The table the rows are in.
    static let table = "push_outbox"

    /// The columns of `push_outbox`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case passID = "pass_id"
        case deviceLibraryIdentifier = "device_library_identifier"
        case attempts
        case nextAttemptAt = "next_attempt_at"
        case leasedUntil = "leased_until"
        case createdAt = "created_at"
    }

    /// The push's identifier.
    var id: String
    /// The pass that changed.
    var passID: String
    /// The device to tell.
    var deviceLibraryIdentifier: String
    /// How many times sending it was tried.
    var attempts: Int64
    /// When to try next, in milliseconds.
    var nextAttemptAt: Int64
    /// Until when a dispatcher holds it, in milliseconds; `nil` when none does.
    var leasedUntil: Int64?
    /// When it was queued, in milliseconds.
    var createdAt: Int64

    /// A new, unleased push of the pass `passID` to the device `deviceLibraryIdentifier`, due at `now`.
    init(passID: UUID, deviceLibraryIdentifier: String, now: Date) {
        id = UUID().uuidString
        self.passID = passID.uuidString
        self.deviceLibraryIdentifier = deviceLibraryIdentifier
        attempts = 0
        nextAttemptAt = SQLWalletRepository.ms(now)
        leasedUntil = nil
        createdAt = SQLWalletRepository.ms(now)
    }
}
