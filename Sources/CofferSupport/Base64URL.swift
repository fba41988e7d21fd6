import Foundation

extension Data {
    /// The bytes as URL-safe Base64 without padding (RFC 4648 §5), as JWTs and URLs carry them.
    package var base64URLEncodedString: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
