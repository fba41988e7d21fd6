import Foundation
import WalletServices

/// A row of `provisioning_sessions`: a session under the SHA-256 of its identifier, never the identifier.
struct SessionRow: TableRow {
    /// The table the rows are in.
    static let table = "provisioning_sessions"

    /// The columns of `provisioning_sessions`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case idHash = "id_hash"
        case passID = "pass_id"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case usedAt = "used_at"
    }

    /// The SHA-256 of the session's identifier.
    var idHash: Data
    /// The pass the session is for.
    var passID: String
    /// When the session was opened, in milliseconds.
    var createdAt: Int64
    /// When the session expires, in milliseconds.
    var expiresAt: Int64
    /// When the session was used, in milliseconds; `nil` while it is unused.
    var usedAt: Int64?

    /// The row that stores `session`, under the hash of its identifier.
    init(_ session: ProvisioningSession) {
        idHash = SessionIdentifier.hash(session.id)
        passID = session.passID.uuidString
        createdAt = SQLWalletRepository.ms(session.createdAt)
        expiresAt = SQLWalletRepository.ms(session.expiresAt)
        usedAt = session.usedAt.map(SQLWalletRepository.ms)
    }

    /// The session this row stores, carrying `id`, the identifier it was found by (the row holds only its hash).
    func model(id: String) throws -> ProvisioningSession {
        ProvisioningSession(
            id: id, passID: try Self.uuid(passID, .passID), createdAt: SQLWalletRepository.date(createdAt),
            expiresAt: SQLWalletRepository.date(expiresAt), usedAt: usedAt.map(SQLWalletRepository.date))
    }
}
