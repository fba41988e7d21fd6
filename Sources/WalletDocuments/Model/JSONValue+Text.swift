import CofferSupport
import Foundation
import Secrets

extension JSONValue {
    /// Reads JSON text (RFC 8259).
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the byte offset and what is wrong there.
    public init(parsing data: Data) throws {
        self = try JSONTextReader.value(of: data)
    }

    /// The value as JSON text: keys sorted, slashes and non-ASCII text unescaped; with `pretty`, one key or element
    /// per line, indented by two spaces, as `JSONEncoder`'s `.prettyPrinted` writes it.
    public func serialized(pretty: Bool = false) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096)
        write(to: &bytes, pretty: pretty, indent: 0)
        return Data(bytes)
    }

    private func write(to bytes: inout [UInt8], pretty: Bool, indent: Int) {
        switch self {
        case .null: bytes += "null".utf8
        case .bool(let flag): bytes += (flag ? "true" : "false").utf8
        case .number(let number): Self.write(number, to: &bytes)
        case .string(let text): JSONString.append(text, to: &bytes)
        case .array(let elements):
            guard !elements.isEmpty else { return bytes += "[]".utf8 }
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.newLine(&bytes, pretty: pretty, indent: indent + 1)
                element.write(to: &bytes, pretty: pretty, indent: indent + 1)
            }
            Self.newLine(&bytes, pretty: pretty, indent: indent)
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { return bytes += "{}".utf8 }
            bytes.append(UInt8(ascii: "{"))
            for (position, key) in members.keys.sorted().enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.newLine(&bytes, pretty: pretty, indent: indent + 1)
                JSONString.append(key, to: &bytes)
                bytes += (pretty ? " : " : ":").utf8
                members[key]!.write(to: &bytes, pretty: pretty, indent: indent + 1)
            }
            Self.newLine(&bytes, pretty: pretty, indent: indent)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static func newLine(_ bytes: inout [UInt8], pretty: Bool, indent: Int) {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes += repeatElement(UInt8(ascii: " "), count: 2 * indent)
    }

    /// A whole number up to 2^53 without a fraction (as JSON writers do), any other in Swift's shortest form that
    /// reads back exactly.
    private static func write(_ number: Double, to bytes: inout [UInt8]) {
        if number.rounded() == number, abs(number) <= 9_007_199_254_740_992 {
            bytes += String(Int64(number)).utf8
        } else {
            bytes += number.description.utf8
        }
    }
}
