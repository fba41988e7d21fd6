import Foundation
import WalletServices

/// A row of `apple_passes`: the columns an `StoredPass` is stored in (the web service's token columns are read and
/// written on their own).
struct PassRow: TableRow {
    /// The table the rows are in.
    static let table = "apple_passes"

    /// The columns of `apple_passes` an `StoredPass` is stored in.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case tagID = "tag_id"
        case passTypeID = "pass_type_id"
        case serialNumber = "serial_number"
        case passContent = "pass_content"
        case accountBindingData = "account_binding_data"
        case issuerBindingData = "issuer_binding_data"
        case keyHash = "key_hash"
        case updatedAt = "updated_at"
        case modifiedAt = "modified_at"
        case updateTag = "update_tag"
    }

    /// The columns that change after a pass is made.
    static let mutableColumns: Set<CodingKeys> = [
        .serialNumber, .passContent, .accountBindingData, .issuerBindingData, .keyHash, .updatedAt,
    ]

    /// The pass's identifier.
    var id: String
    /// The tag the pass is for.
    var tagID: String
    /// The pass type the pass is signed under.
    var passTypeID: String
    /// The pass's serial number.
    var serialNumber: String
    /// The pass's content (its package).
    var passContent: Data
    /// The account-binding data issued for the pass, if any.
    var accountBindingData: Data?
    /// The issuer-binding data a device bound, if any.
    var issuerBindingData: String?
    /// The hash of the key a device bound, if any.
    var keyHash: String?
    /// When the pass was last updated, in milliseconds.
    var updatedAt: Int64
    /// The pass's `Last-Modified`, in milliseconds (`nil` in rows older than the web service: `updatedAt`).
    var modifiedAt: Int64?
    /// The pass's update tag (`nil` in rows older than the web service: 0).
    var updateTag: Int64?

    /// The row that stores `pass`.
    init(_ pass: StoredPass) {
        id = pass.id.uuidString
        tagID = pass.tagID.uuidString
        passTypeID = pass.passTypeID.uuidString
        serialNumber = pass.serialNumber
        passContent = pass.passContent
        accountBindingData = pass.accountBindingData
        issuerBindingData = pass.issuerBindingData
        keyHash = pass.keyHash
        updatedAt = SQLWalletRepository.ms(pass.updatedAt)
        modifiedAt = SQLWalletRepository.ms(pass.modifiedAt)
        updateTag = pass.updateTag
    }

    /// The pass this row stores.
    func model() throws -> StoredPass {
        StoredPass(
            id: try Self.uuid(id, .id), tagID: try Self.uuid(tagID, .tagID),
            passTypeID: try Self.uuid(passTypeID, .passTypeID), serialNumber: serialNumber, passContent: passContent,
            accountBindingData: accountBindingData, issuerBindingData: issuerBindingData, keyHash: keyHash,
            updatedAt: SQLWalletRepository.date(updatedAt), modifiedAt: modifiedAt.map(SQLWalletRepository.date),
            updateTag: updateTag ?? 0)
    }
}
