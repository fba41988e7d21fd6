import SQLKit
import WalletServices

/// A pass a device lists as updated: its identifier, serial number and update tag.
struct UpdatedPassRow: Decodable {
    /// The aliases the columns are selected as.
    enum CodingKeys: String, CodingKey {
        case passID = "pass_id"
        case serialNumber = "serial_number"
        case updateTag = "update_tag"
    }

    /// The pass's identifier.
    var passID: String
    /// The pass's serial number.
    var serialNumber: String
    /// The pass's update tag (`nil` in rows older than the web service: 0).
    var updateTag: Int64?

    /// `query` selecting these columns from `apple_passes`.
    static func selecting(in query: SQLSelectBuilder) -> SQLSelectBuilder {
        query.column(PassRow.column(.id), as: CodingKeys.passID.stringValue)
            .column(PassRow.column(.serialNumber), as: CodingKeys.serialNumber.stringValue)
            .column(PassRow.column(.updateTag), as: CodingKeys.updateTag.stringValue)
    }

    /// The passes of a pass type registered on a device, in serial-number order: bind the device library identifier,
    /// then the pass type identifier, and with `since` the update tag they must be newer than.
    static func lookup(since: Bool, on sql: any SQLDatabase) -> SerializedSelect {
        var query = selecting(in: sql.select())
            .from(PassRegistrationRow.table)
            .joiningPasses(on: PassRegistrationRow.column(.passID), method: InnerJoinInOrder())
            .joiningPassTypes(method: InnerJoinInOrder())
            .where(PassRegistrationRow.column(.deviceLibraryIdentifier), .equal, SQLBind(""))
            .where(PassTypeRow.column(.passTypeIdentifier), .equal, SQLBind(""))
        if since { query = query.where(PassRow.column(.updateTag), .greaterThan, SQLBind(Int64(0))) }
        return SerializedSelect(query.orderBy(PassRow.column(.serialNumber)))
    }
}
