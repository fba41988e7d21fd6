import Foundation
import WalletServices

/// A row of `api_users`: an API user, with the hash of its token (never the token).
struct APIUserRow: TableRow {
    /// The table the rows are in.
    static let table = "api_users"

    /// The columns of `api_users`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case clientID = "client_id"
        case name
        case tokenHash = "token_hash"
        case createdAt = "created_at"
        case revokedAt = "revoked_at"
    }

    /// The API user's identifier.
    var id: String
    /// The client the API user acts for.
    var clientID: String
    /// The API user's name.
    var name: String
    /// The SHA-256 of the API user's token.
    var tokenHash: Data
    /// When the API user was created, in milliseconds.
    var createdAt: Int64
    /// When the API user was revoked, in milliseconds; `nil` while it is active.
    var revokedAt: Int64?

    /// The row that stores `user`.
    init(_ user: APIUser) {
        id = user.id.uuidString
        clientID = user.clientID.uuidString
        name = user.name
        tokenHash = user.tokenHash
        createdAt = SQLWalletRepository.ms(user.createdAt)
        revokedAt = user.revokedAt.map(SQLWalletRepository.ms)
    }

    /// The API user this row stores.
    func model() throws -> APIUser {
        APIUser(
            id: try Self.uuid(id, .id), clientID: try Self.uuid(clientID, .clientID), name: name, tokenHash: tokenHash,
            createdAt: SQLWalletRepository.date(createdAt), revokedAt: revokedAt.map(SQLWalletRepository.date))
    }
}
