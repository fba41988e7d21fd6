import SQLKit
import WalletServices

/// The columns of an issuance target's join besides its pass type and user: the tag's and the pass's identifiers, the
/// pass's serial number,
/// and the client of the pass type's grant (`NULL` when the tag's client may not issue under the pass type).
struct IssuanceTargetRow: Decodable {
    /// The aliases the columns are selected as.
    enum CodingKeys: String, CodingKey {
        case tagID = "tag_id"
        case passID = "pass_id"
        case serialNumber = "serial_number"
        case grantedClientID = "granted_client_id"
    }

    /// The tag's identifier.
    var tagID: String
    /// The identifier of the tag's pass.
    var passID: String
    /// The pass's serial number.
    var serialNumber: String
    /// The tag's client, when it may issue under the pass's pass type.
    var grantedClientID: String?

    /// `query` selecting these columns from the join of `tags`, `apple_passes` and `pass_type_clients`.
    static func selecting(in query: SQLSelectBuilder) -> SQLSelectBuilder {
        query.column(TagRow.column(.id), as: CodingKeys.tagID.stringValue)
            .column(PassRow.column(.id), as: CodingKeys.passID.stringValue)
            .column(PassRow.column(.serialNumber), as: CodingKeys.serialNumber.stringValue)
            .column(PassTypeClientRow.column(.clientID), as: CodingKeys.grantedClientID.stringValue)
    }
}
