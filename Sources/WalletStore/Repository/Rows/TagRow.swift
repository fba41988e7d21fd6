import Foundation
import WalletServices

/// A row of `tags`.
struct TagRow: TableRow {
    /// The table the rows are in.
    static let table = "tags"

    /// The columns of `tags`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case clientID = "client_id"
        case userID = "user_id"
        case referenceID = "reference_id"
        case prontoTagID = "pronto_tag_id"
        case subscriptionID = "subscription_id"
        case createdAt = "created_at"
    }

    /// The column that holds a tag's `attribute`.
    static func key(_ attribute: TagIDAttribute) -> CodingKeys {
        switch attribute {
        case .referenceID: .referenceID
        case .prontoTagID: .prontoTagID
        case .subscriptionID: .subscriptionID
        }
    }

    /// The tag's identifier.
    var id: String
    /// The client the tag belongs to.
    var clientID: String
    /// The user the tag is for.
    var userID: String
    /// The client's reference, if any.
    var referenceID: String?
    /// Pronto's tag identifier, if any.
    var prontoTagID: String?
    /// A subscription identifier, if any.
    var subscriptionID: String?
    /// When the tag was created, in milliseconds.
    var createdAt: Int64

    /// The row that stores `tag`.
    init(_ tag: ClientTag) {
        id = tag.id.uuidString
        clientID = tag.clientID.uuidString
        userID = tag.userID.uuidString
        referenceID = tag.referenceID
        prontoTagID = tag.prontoTagID
        subscriptionID = tag.subscriptionID
        createdAt = SQLWalletRepository.ms(tag.createdAt)
    }

    /// The tag this row stores.
    func model() throws -> ClientTag {
        ClientTag(
            id: try Self.uuid(id, .id), clientID: try Self.uuid(clientID, .clientID),
            userID: try Self.uuid(userID, .userID), referenceID: referenceID, prontoTagID: prontoTagID,
            subscriptionID: subscriptionID, createdAt: SQLWalletRepository.date(createdAt))
    }
}
