import Foundation
import WalletDocuments

extension Pass {
    /// The shortest `authenticationToken` Wallet accepts.
    public static let minimumAuthenticationTokenLength = DocumentChecks.minimumAuthenticationTokenLength
    /// The most locations or beacons Wallet considers.
    public static let maximumRelevanceEntries = 10
    /// The longest NFC message, in bytes.
    public static let maximumNFCMessageLength = 64

    /// Whether `text` is an https URL with a host: what Wallet accepts for `webServiceURL` and a binding's
    /// `learnMoreURL`.
    public static func isHTTPSURL(_ text: String) -> Bool {
        let url = URL(string: text)
        return url?.scheme == "https" && url?.host != nil
    }
}
