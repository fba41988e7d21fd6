import Foundation
import WalletServices

/// A row of `pass_type_clients`: a client may issue passes under a pass type.
struct PassTypeClientRow: TableRow {
    /// The table the rows are in.
    static let table = "pass_type_clients"

    /// The columns of `pass_type_clients`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case passTypeID = "pass_type_id"
        case clientID = "client_id"
        case createdAt = "created_at"
    }

    /// The columns of the table's primary key: a pass type is shared with a client once.
    static let primaryKey: [CodingKeys] = [.passTypeID, .clientID]

    /// The pass type shared.
    var passTypeID: String
    /// The client it is shared with.
    var clientID: String
    /// When it was shared, in milliseconds.
    var createdAt: Int64

    /// The row that shares the pass type `passTypeID` with the client `clientID` at `createdAt`.
    init(passTypeID: UUID, clientID: UUID, createdAt: Date) {
        self.passTypeID = passTypeID.uuidString
        self.clientID = clientID.uuidString
        self.createdAt = SQLWalletRepository.ms(createdAt)
    }
}
