import CofferSupport
import Crypto
import Foundation
import Secrets

/// `manifest.json`: every file's lowercase hex digest (SHA-1 for passes, SHA-256 for orders), as one JSON object
/// with its keys sorted and slashes unescaped.
///
/// Writes the bytes `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes for the same dictionary (keys
/// in `String` order, `"`, `\` and control characters escaped the same way), without the encoder's cost.
package enum DocumentManifest {
    /// The lowercase hex SHA-1 of `data`.
    package static func hash(_ data: Data) -> String {
        Insecure.SHA1.hash(data: data).hexString
    }

    /// The lowercase hex SHA-256 of `data`: an order's manifest.
    package static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).hexString
    }

    /// The manifest of `hashes` (path to hex digest).
    package static func json(_ hashes: [String: String]) -> Data {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(hashes.count * 64 + 2)
        for (index, path) in hashes.keys.sorted().enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONString.append(path, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONString.append(hashes[path]!, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return Data(bytes)
    }

}
