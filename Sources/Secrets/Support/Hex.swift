import Foundation

/// Lowercase hexadecimal text: written from bytes, and read back strictly (an even number of `0-9a-fA-F` digits).
package enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Appends `byte`'s two lowercase digits to `bytes`.
    package static func append(_ byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(digits[Int(byte >> 4)])
        bytes.append(digits[Int(byte & 0x0F)])
    }

    /// The bytes `text` spells, or `nil` unless it is an even number of hexadecimal digits.
    package static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count.isMultiple(of: 2) else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(of: utf8[index]), let low = value(of: utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// Whether `text` is 1 to `maximumLength` bytes of hexadecimal text, written as an even number of digits.
    package static func isValid(_ text: some StringProtocol, maximumLength: Int) -> Bool {
        let count = text.utf8.count
        return count > 0 && count <= maximumLength && count.isMultiple(of: 2)
            && text.utf8.allSatisfy { value(of: $0) != nil }
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Sequence<UInt8> {
    /// The bytes as lowercase hexadecimal digits.
    package var hexString: String {
        var text = [UInt8]()
        for byte in self { Hex.append(byte, to: &text) }
        return String(decoding: text, as: UTF8.self)
    }
}
