import Foundation
import WalletServices

/// A row of `share_links`: a link that serves a pass, under the hash of its token (never the token).
struct ShareLinkRow: TableRow {
    /// The table the rows are in.
    static let table = "share_links"

    /// The columns of `share_links`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case tokenHash = "token_hash"
        case passID = "pass_id"
        case clientID = "client_id"
        case singleUse = "single_use"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case usedAt = "used_at"
    }

    /// The link's identifier.
    var id: String
    /// The SHA-256 of the link's token.
    var tokenHash: Data
    /// The pass it serves.
    var passID: String
    /// The client that made it.
    var clientID: String
    /// 1 when the first download spends it, else 0.
    var singleUse: Int64
    /// When it was made, in milliseconds.
    var createdAt: Int64
    /// When it expires, in milliseconds.
    var expiresAt: Int64
    /// When it last served the pass, in milliseconds.
    var usedAt: Int64?

    /// The row that stores `link`.
    init(_ link: ShareLink) {
        id = link.id.uuidString
        tokenHash = link.tokenHash
        passID = link.passID.uuidString
        clientID = link.clientID.uuidString
        singleUse = link.singleUse ? 1 : 0
        createdAt = SQLWalletRepository.ms(link.createdAt)
        expiresAt = SQLWalletRepository.ms(link.expiresAt)
        usedAt = link.usedAt.map(SQLWalletRepository.ms)
    }

    /// The link this row stores.
    func model() throws -> ShareLink {
        ShareLink(
            id: try Self.uuid(id, .id), tokenHash: tokenHash, passID: try Self.uuid(passID, .passID),
            clientID: try Self.uuid(clientID, .clientID), singleUse: singleUse != 0,
            createdAt: SQLWalletRepository.date(createdAt), expiresAt: SQLWalletRepository.date(expiresAt),
            usedAt: usedAt.map(SQLWalletRepository.date))
    }
}
