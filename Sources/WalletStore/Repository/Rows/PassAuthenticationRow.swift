import Foundation
import SQLKit
import WalletServices

/// The web service's columns of `apple_passes`: a pass's authentication token, stored as a salt and the hash of the
/// token (never the token), both `NULL` until the pass has one.
struct PassAuthenticationRow: TableRow {
    /// The table the rows are in.
    static let table = "apple_passes"

    /// The columns of `apple_passes` that hold a pass's authentication token.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case authenticationSalt = "authentication_salt"
        case authenticationTokenHash = "authentication_token_hash"
    }

    /// The salt the token is derived with.
    var authenticationSalt: String?
    /// The SHA-256 of the token.
    var authenticationTokenHash: Data?

    /// The columns that store the token of `salt` whose hash is `tokenHash`.
    init(salt: String, tokenHash: Data) {
        authenticationSalt = salt
        authenticationTokenHash = tokenHash
    }

    /// A pass's token columns: bind the pass's identifier.
    static func lookup(on sql: any SQLDatabase) -> SerializedSelect {
        SerializedSelect(
            sql.select().columns(of: Self.self).from(table).where(PassRow.column(.id), .equal, SQLBind("")))
    }
}
