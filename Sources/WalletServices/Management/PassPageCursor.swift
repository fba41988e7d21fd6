import CofferSupport
import Foundation

/// Where a page of a client's passes ends, handed to the client as an opaque string: the tag's creation time and
/// identifier, the order passes are listed in (oldest tag first, ties by identifier), so a page never repeats or
/// skips a pass however many are created meanwhile.
package struct PassPageCursor: Hashable, Sendable {
    /// The last listed tag's creation time, in milliseconds since 1970.
    package let createdAt: Int64
    /// The last listed tag's identifier.
    package let tagID: UUID

    /// Creates a cursor after the tag created at `createdAt` (milliseconds) with `tagID`.
    package init(createdAt: Int64, tagID: UUID) {
        self.createdAt = createdAt
        self.tagID = tagID
    }

    /// Reads a cursor a page handed out; `nil` when `text` is not one.
    package init?(_ text: String) {
        guard (1...128).contains(text.utf8.count), text.utf8.allSatisfy(Self.alphabet.contains) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let plain = String(data: data, encoding: .utf8) else {
            return nil
        }
        let parts = plain.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "p1", let createdAt = Int64(parts[1]),
            let tagID = UUID(uuidString: String(parts[2]))
        else { return nil }
        self.init(createdAt: createdAt, tagID: tagID)
    }

    /// The characters of a cursor: URL-safe Base64's.
    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The cursor as the client sees it: URL-safe Base64 without padding.
    package var text: String {
        Data("p1:\(createdAt):\(tagID.uuidString)".utf8).base64URLEncodedString
    }
}

/// A page of a client's passes, and the cursor of the next one (`nil` on the last page).
package struct ManagedPassPage: Encodable, Hashable, Sendable {
    /// The passes, oldest tag first.
    package let passes: [ManagedPassState]
    /// The cursor of the next page, or `nil` when this is the last.
    package let nextCursor: String?

    /// Creates a page.
    package init(passes: [ManagedPassState], nextCursor: String?) {
        self.passes = passes
        self.nextCursor = nextCursor
    }

    enum CodingKeys: String, CodingKey {
        case passes
        case nextCursor = "next_cursor"
    }

    /// Writes `next_cursor` as `null` on the last page rather than leaving it out.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(passes, forKey: .passes)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}
