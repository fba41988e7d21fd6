import Foundation
import WalletServices

/// A row of `users`.
struct UserRow: TableRow {
    /// The table the rows are in.
    static let table = "users"

    /// The columns of `users`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case clientID = "client_id"
        case externalReference = "external_reference"
        case accountHash = "account_hash"
        case createdAt = "created_at"
    }

    /// The user's identifier.
    var id: String
    /// The client the user belongs to.
    var clientID: String
    /// The client's own reference for the user, if it gave one.
    var externalReference: String?
    /// The user's account hash.
    var accountHash: String
    /// When the user was created, in milliseconds.
    var createdAt: Int64

    /// The row that stores `user`.
    init(_ user: User) {
        id = user.id.uuidString
        clientID = user.clientID.uuidString
        externalReference = user.externalReference
        accountHash = user.accountHash
        createdAt = SQLWalletRepository.ms(user.createdAt)
    }

    /// The user this row stores.
    func model() throws -> User {
        User(
            id: try Self.uuid(id, .id), clientID: try Self.uuid(clientID, .clientID),
            externalReference: externalReference, accountHash: accountHash,
            createdAt: SQLWalletRepository.date(createdAt))
    }
}
