import Foundation
import WalletServices

/// A row of `pass_personalizations`: the fields a pass was personalized with.
struct PassPersonalizationRow: TableRow {
    /// The table the rows are in.
    static let table = "pass_personalizations"

    /// The columns of `pass_personalizations`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case passID = "pass_id"
        case fields
        case personalizedAt = "personalized_at"
    }

    /// The pass personalized.
    var passID: String
    /// The personalization fields, as the device sent them.
    var fields: Data
    /// When the pass was personalized, in milliseconds.
    var personalizedAt: Int64

    /// The personalization of the pass `passID` with `fields` at `personalizedAt`.
    init(passID: UUID, fields: Data, personalizedAt: Date) {
        self.passID = passID.uuidString
        self.fields = fields
        self.personalizedAt = SQLWalletRepository.ms(personalizedAt)
    }
}
