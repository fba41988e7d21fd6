import Foundation
import WalletServices

/// A row of `clients`.
struct ClientRow: TableRow {
    /// The table the rows are in.
    static let table = "clients"

    /// The columns of `clients`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name
        case createdAt = "created_at"
    }

    /// The client's identifier.
    var id: String
    /// The client's name.
    var name: String
    /// When the client was created, in milliseconds.
    var createdAt: Int64

    /// The row that stores `client`.
    init(_ client: Client) {
        id = client.id.uuidString
        name = client.name
        createdAt = SQLWalletRepository.ms(client.createdAt)
    }

    /// The client this row stores.
    func model() throws -> Client {
        Client(id: try Self.uuid(id, .id), name: name, createdAt: SQLWalletRepository.date(createdAt))
    }
}
