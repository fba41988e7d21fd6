import Foundation
import SQLKit
import WalletServices

/// What the web service reads about a pass to authenticate a device and answer `If-Modified-Since`.
struct WebServicePassRow: Decodable {
    /// The aliases the columns are selected as.
    enum CodingKeys: String, CodingKey {
        case passID = "pass_id"
        case authenticationTokenHash = "authentication_token_hash"
        case modifiedAt = "modified_at"
    }

    /// The pass's identifier.
    var passID: String
    /// The SHA-256 of the pass's authentication token, once it has one.
    var authenticationTokenHash: Data?
    /// The pass's `Last-Modified`, in milliseconds.
    var modifiedAt: Int64

    /// The pass of a pass type identifier and serial number, serialized once (the web service's hottest read):
    /// bind the identifier, then the serial number.
    static func lookup(on sql: any SQLDatabase) -> SerializedSelect {
        SerializedSelect(
            selecting(in: sql.select())
                .from(PassRow.table)
                .joiningPassTypes()
                .where(PassTypeRow.column(.passTypeIdentifier), .equal, SQLBind(""))
                .where(PassRow.column(.serialNumber), .equal, SQLBind(""))
                .limit(1))
    }

    /// The order of an order type identifier and order identifier, serialized once (the orders web service's hottest
    /// read, without the order's content): bind the order type identifier, then the order identifier.
    static func orderLookup(on sql: any SQLDatabase) -> SerializedSelect {
        SerializedSelect(
            sql.select().column(OrderRow.column(.id), as: CodingKeys.passID.stringValue)
                .column(OrderRow.column(.authenticationTokenHash), as: CodingKeys.authenticationTokenHash.stringValue)
                .column(OrderRow.column(.modifiedAt), as: CodingKeys.modifiedAt.stringValue)
                .from(OrderRow.table)
                .join(PassTypeRow.table, on: PassTypeRow.column(.id), .equal, OrderRow.column(.orderTypeID))
                .where(PassTypeRow.column(.passTypeIdentifier), .equal, SQLBind(""))
                .where(PassTypeRow.column(.kind), .equal, SQLLiteral.string(PassType.Kind.order.rawValue))
                .where(OrderRow.column(.orderIdentifier), .equal, SQLBind(""))
                .limit(1))
    }

    /// `query` selecting these columns from `apple_passes`.
    static func selecting(in query: SQLSelectBuilder) -> SQLSelectBuilder {
        query.column(PassRow.column(.id), as: CodingKeys.passID.stringValue)
            .column(
                PassAuthenticationRow.column(.authenticationTokenHash),
                as: CodingKeys.authenticationTokenHash.stringValue
            )
            .column(PassRow.column(.modifiedAt), as: CodingKeys.modifiedAt.stringValue)
    }

    /// The pass this row describes.
    func model() throws -> WebServicePass {
        WebServicePass(
            passID: try PassRow.uuid(passID, .id), authenticationTokenHash: authenticationTokenHash,
            modifiedAt: SQLWalletRepository.date(modifiedAt))
    }
}
