import Foundation
import WalletServices

/// A row of `signed_pass_archives`: a pass's last signed `.pkpass` and the version it was signed at.
struct SignedPassArchiveRow: TableRow {
    /// The table the rows are in.
    static let table = "signed_pass_archives"

    /// The columns of `signed_pass_archives`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case passID = "pass_id"
        case version
        case pkpass
        case signedAt = "signed_at"
    }

    /// The pass's identifier.
    var passID: String
    /// The `PassArchiveVersion` digest the archive was signed at.
    var version: Data
    /// The signed archive.
    var pkpass: Data
    /// When it was signed, in milliseconds.
    var signedAt: Int64
}
