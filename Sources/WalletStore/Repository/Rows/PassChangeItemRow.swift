import Foundation
import SQLKit
import WalletServices

/// A row of `pass_change_items`: one pass of a bulk change, and the reads of it and its pass a batch makes.
enum PassChangeItemRow {
    /// The table the rows are in.
    static let table = "pass_change_items"

    /// The columns a list's line fills.
    static let listColumns = ["job_id", "seq", "target_attribute", "target_value", "change", "state"]

    /// The values of ``listColumns`` for `line` of the job `jobID`: its place is its line.
    static func values(of line: PassChangeLine, jobID: String) -> [any SQLExpression] {
        [
            SQLBind(jobID), SQLBind(Int64(line.line)), SQLBind(line.attribute.rawValue), SQLBind(line.value),
            SQLBind(String(decoding: line.change, as: UTF8.self)), SQLBind("pending"),
        ]
    }

    /// An item a runner leased.
    struct Claimed: Decodable {
        var seq: Int64
        /// A match's pass.
        var passID: String?
        /// A line's tag: which identifier, and its value.
        var targetAttribute: String?
        var targetValue: String?
        /// A line's change.
        var change: String?
        /// How many times it was claimed, this claim included.
        var attempts: Int64

        enum CodingKeys: String, CodingKey {
            case seq, attempts
            case passID = "pass_id"
            case targetAttribute = "target_attribute"
            case targetValue = "target_value"
            case change
        }
    }

    /// A pass as a claim reads it, with what names it in a failure (`label`).
    struct StoredPass: Decodable {
        var id: String
        var passContent: Data
        var updateTag: Int64
        var label: String

        enum CodingKeys: String, CodingKey {
            case id, label
            case passContent = "pass_content"
            case updateTag = "update_tag"
        }

        /// The pass as a batch carries it.
        func claimed() throws -> PassChangeBatch.ClaimedPass {
            PassChangeBatch.ClaimedPass(id: try PassRow.uuid(id, .id), content: passContent, updateTag: updateTag)
        }
    }

    /// A pass as a commit reads it, locked.
    struct LockedPass: Decodable {
        var id: String
        var passContent: Data
        var updateTag: Int64
        var modifiedAt: Int64?
        var updatedAt: Int64

        enum CodingKeys: String, CodingKey {
            case id
            case passContent = "pass_content"
            case updateTag = "update_tag"
            case modifiedAt = "modified_at"
            case updatedAt = "updated_at"
        }
    }

    /// A failed item.
    struct Failure: Decodable {
        var seq: Int64
        var targetAttribute: String?
        var targetValue: String?
        var error: String?

        enum CodingKeys: String, CodingKey {
            case seq, error
            case targetAttribute = "target_attribute"
            case targetValue = "target_value"
        }

        /// The failure as the job shows it.
        var model: PassChangeJob.Failure {
            PassChangeJob.Failure(
                item: Int(seq), target: [targetAttribute, targetValue].compactMap { $0 }.joined(separator: " "),
                reason: error ?? "")
        }
    }
}
