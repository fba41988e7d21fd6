import Foundation
import SQLKit
import WalletServices

/// A row of one table as it is stored: a `Codable` struct whose `CodingKeys` name the table's columns, once.
///
/// Fields have the stored types: identifiers are text, times integer milliseconds since 1970 (see
/// ``SQLWalletRepository/ms(_:)``), and a nullable column is optional. Rows decode with `decode(model:prefix:)` and
/// insert with `SQLKit/SQLDatabase/insert(_:)`.
protocol TableRow: Codable, Sendable {
    /// The row's columns, each named by its string value.
    associatedtype CodingKeys: CodingKey, CaseIterable

    /// The table's name.
    static var table: String { get }
}

extension TableRow {
    /// The table's columns, in the order the row declares them.
    static var columns: [String] { CodingKeys.allCases.map(\.stringValue) }

    /// The prefix of the table's columns where a join selects them as `table__column`.
    static var prefix: String { table + "__" }

    /// The column `key`, qualified by the table's name.
    static func column(_ key: CodingKeys) -> SQLColumn { SQLColumn(key.stringValue, table: table) }

    /// The identifier `text` read from the column `key`; text that is not a UUID means the record is corrupt.
    static func uuid(_ text: String, _ key: CodingKeys) throws -> UUID {
        guard let id = UUID(uuidString: text) else {
            throw WalletServerError.corruptRecord("\(key.stringValue) '\(text)'")
        }
        return id
    }
}
