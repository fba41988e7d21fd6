import Foundation

extension Data {
    /// The bytes as URL-safe Base64 without padding (RFC 4648 §5), as JWTs and URLs carry them.
    package var base64URLEncodedString: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of URL-safe Base64 with or without padding, or `nil` when `text` is not that.
    package init?(base64URLEncoded text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while !base64.utf8.count.isMultiple(of: 4) { base64 += "=" }
        self.init(base64Encoded: base64)
    }
}
