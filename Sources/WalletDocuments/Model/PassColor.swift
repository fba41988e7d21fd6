import Foundation

/// A color written as `rgb(r, g, b)`.
public struct PassColor: Codable, Hashable, Sendable, CustomStringConvertible, DocumentJSONConvertible {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8

    /// Creates a color.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `rgb(r, g, b)` (also `#rrggbb`, which Wallet accepts too).
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.hasPrefix("#"), trimmed.count == 7, let value = UInt32(trimmed.dropFirst(), radix: 16) {
            self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
            return
        }
        guard trimmed.hasPrefix("rgb("), trimmed.hasSuffix(")") else { return nil }
        let parts = trimmed.dropFirst(4).dropLast().split(separator: ",", omittingEmptySubsequences: false)
            .map { UInt8($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, let red = parts[0], let green = parts[1], let blue = parts[2] else { return nil }
        self.init(red: red, green: green, blue: blue)
    }

    /// `rgb(r, g, b)`.
    public var description: String { "rgb(\(red), \(green), \(blue))" }

    /// Decodes a color string; an unparseable one fails with a message naming the text.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let color = PassColor(parsing: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not rgb(r, g, b)"))
        }
        self = color
    }

    /// Encodes `rgb(r, g, b)`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Reads a color string; `nil` for one that is not a color.
    public init?(documentJSON: JSONValue) {
        guard case .string(let text) = documentJSON else { return nil }
        self.init(parsing: text)
    }

    /// `rgb(r, g, b)`.
    public var documentJSON: JSONValue { .string(description) }
}
