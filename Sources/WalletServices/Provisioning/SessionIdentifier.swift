import Foundation
import Secrets

/// Provisioning session identifiers: made at random, sent to the device inside the signed issuer data, and stored
/// only as their SHA-256 (as API tokens are), so that whoever reads the database cannot complete a binding.
package enum SessionIdentifier {
    /// A new identifier: 24 random bytes, lowercase hex (48 characters).
    static func make() -> String {
        SecureRandom.hex(byteCount: 24)
    }

    /// What the database stores and looks up in place of `identifier`.
    package static func hash(_ identifier: String) -> Data {
        SecretToken.hash(identifier)
    }

    /// What stands for `identifier` where a record keeps a copy of the issuer data: `sha256:` and the lowercase
    /// hex of ``hash(_:)``, which names the session's row without being able to complete it.
    package static func storedForm(of identifier: String) -> String {
        "sha256:" + hash(identifier).hexString
    }

    /// Whether `text` is already a ``storedForm(of:)``.
    package static func isStoredForm(_ text: String) -> Bool {
        text.hasPrefix("sha256:") && text.count == 7 + 64
    }
}
