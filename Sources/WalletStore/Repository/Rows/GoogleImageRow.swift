import Foundation

/// A row of `google_images`: an image a Google Wallet class or object refers to, by its content's SHA-256.
struct GoogleImageRow: TableRow {
    /// The table the rows are in.
    static let table = "google_images"

    /// The columns of `google_images`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name
        case content
        case keptAt = "kept_at"
    }

    /// `<SHA-256 in hex>.png`.
    var name: String
    /// The PNG bytes.
    var content: Data
    /// When it was first kept, in milliseconds.
    var keptAt: Int64
}
