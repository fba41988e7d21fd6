import Crypto
import Foundation

/// `manifest.json`: every file's lowercase hex SHA-1, as one JSON object with its keys sorted and slashes unescaped.
///
/// Writes the bytes `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes for the same dictionary (keys
/// in `String` order, `"`, `\` and control characters escaped the same way), without the encoder's cost.
enum PassManifest {
    /// The lowercase hex SHA-1 of `data`.
    static func hash(_ data: Data) -> String {
        let digest = Insecure.SHA1.hash(data: data)
        return String(unsafeUninitializedCapacity: 40) { buffer in
            var index = 0
            for byte in digest {
                buffer[index] = hexDigits[Int(byte >> 4)]
                buffer[index + 1] = hexDigits[Int(byte & 0x0F)]
                index += 2
            }
            return 40
        }
    }

    /// The manifest of `hashes` (path to hex SHA-1).
    static func json(_ hashes: [String: String]) -> Data {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(hashes.count * 64 + 2)
        for (index, path) in hashes.keys.sorted().enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendString(path, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            appendString(hashes[path]!, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return Data(bytes)
    }

    /// `text` as a JSON string, escaped as `JSONEncoder` escapes it (slashes left alone).
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case ..<0x20:
                bytes += Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
