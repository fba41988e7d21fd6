import Crypto
import Foundation
import Secrets

/// What logs show in place of a Wallet device's library identifier: a keyed hash, so that one process's lines about
/// one device can be told apart from another's without the identifier (which names the device to the web service).
package enum DeviceIdentifierDigest {
    /// The key, made when the process starts and never stored: digests do not outlive the process.
    private static let key = SymmetricKey(size: .bits256)

    /// The first 12 hexadecimal digits of the identifier's HMAC-SHA256 under the process's key.
    package static func logValue(_ deviceLibraryIdentifier: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(deviceLibraryIdentifier.utf8), using: key)
        return String(mac.hexString.prefix(12))
    }
}
