import Foundation
import WalletServices

/// A row of `landing_links`: a landing-page link, under the hash of its token (never the token).
struct LandingLinkRow: TableRow {
    /// The table the rows are in.
    static let table = "landing_links"

    /// The columns of `landing_links`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case tokenHash = "token_hash"
        case passID = "pass_id"
        case clientID = "client_id"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }

    /// The SHA-256 of the link's token.
    var tokenHash: Data
    /// The pass the page adds to Wallet.
    var passID: String
    /// The client that made the link.
    var clientID: String
    /// When the link was made, in milliseconds.
    var createdAt: Int64
    /// When the link expires, in milliseconds.
    var expiresAt: Int64

    /// The row that stores `link`.
    init(_ link: LandingLink) {
        tokenHash = link.tokenHash
        passID = link.passID.uuidString
        clientID = link.clientID.uuidString
        createdAt = SQLWalletRepository.ms(link.createdAt)
        expiresAt = SQLWalletRepository.ms(link.expiresAt)
    }

    /// The link this row stores.
    func model() throws -> LandingLink {
        LandingLink(
            tokenHash: tokenHash, passID: try Self.uuid(passID, .passID), clientID: try Self.uuid(clientID, .clientID),
            createdAt: SQLWalletRepository.date(createdAt), expiresAt: SQLWalletRepository.date(expiresAt))
    }
}
