import Foundation
import Secrets

extension Pass {
    /// The shortest `authenticationToken` Wallet accepts.
    public static let minimumAuthenticationTokenLength = 16
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

    /// Every problem Wallet would reject, each naming its key; empty when the pass is valid.
    public func validationIssues() -> [PassValidationIssue] {
        var issues: [PassValidationIssue] = []
        func require(_ condition: Bool, _ key: String, _ message: String) {
            if !condition { issues.append(PassValidationIssue(key: key, message: message)) }
        }
        func isBlank(_ text: String) -> Bool { text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }

        require(formatVersion == 1, "formatVersion", "must be 1")
        for (key, value) in [
            ("passTypeIdentifier", passTypeIdentifier), ("teamIdentifier", teamIdentifier),
            ("serialNumber", serialNumber), ("organizationName", organizationName), ("description", description),
        ] {
            require(!isBlank(value), key, "is required and must not be empty")
        }
        require(
            passTypeIdentifier.isEmpty || passTypeIdentifier.hasPrefix("pass."), "passTypeIdentifier",
            "must start with 'pass.' (for example pass.com.example.ticket)")
        require(
            teamIdentifier.isEmpty || teamIdentifier.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) },
            "teamIdentifier", "must be the 10-character Apple Developer team identifier")

        var seenKeys: Set<String> = []
        for (list, index, field) in fields.all {
            let path = "\(style.rawValue).\(list)[\(index)]"
            require(!isBlank(field.key), "\(path).key", "is required")
            require(
                seenKeys.insert(field.key).inserted || isBlank(field.key), "\(path).key",
                "'\(field.key)' is used by another field; field keys must be unique")
            if let code = field.currencyCode {
                require(
                    code.count == 3 && code.allSatisfy(\.isUppercase), "\(path).currencyCode",
                    "'\(code)' is not an ISO 4217 code such as USD")
            }
        }
        require(
            style != .boardingPass || fields.transitType != nil, "boardingPass.transitType",
            "is required for boarding passes")
        require(
            style == .boardingPass || fields.transitType == nil, "\(style.rawValue).transitType",
            "is only allowed on boarding passes")

        for (index, barcode) in (barcodes ?? []).enumerated() {
            require(!barcode.messageEncoding.isEmpty, "barcodes[\(index)].messageEncoding", "is required")
        }
        if let barcode { require(!barcode.messageEncoding.isEmpty, "barcode.messageEncoding", "is required") }

        require(
            (locations ?? []).count <= Self.maximumRelevanceEntries, "locations",
            "has more than \(Self.maximumRelevanceEntries) entries; Wallet ignores the rest")
        for (index, location) in (locations ?? []).enumerated() {
            require((-90...90).contains(location.latitude), "locations[\(index)].latitude", "must be in -90…90")
            require((-180...180).contains(location.longitude), "locations[\(index)].longitude", "must be in -180…180")
        }
        require(
            (beacons ?? []).count <= Self.maximumRelevanceEntries, "beacons",
            "has more than \(Self.maximumRelevanceEntries) entries; Wallet ignores the rest")
        for (index, beacon) in (beacons ?? []).enumerated() {
            require(
                UUID(uuidString: beacon.proximityUUID) != nil, "beacons[\(index)].proximityUUID",
                "'\(beacon.proximityUUID)' is not a UUID")
        }
        for (index, relevant) in (relevantDates ?? []).enumerated() {
            require(
                relevant.date != nil || relevant.startDate != nil, "relevantDates[\(index)]",
                "needs a date or a startDate")
            if let start = relevant.startDate, let end = relevant.endDate {
                require(start <= end, "relevantDates[\(index)].endDate", "is before startDate")
            }
        }

        require(
            (webServiceURL == nil) == (authenticationToken == nil),
            webServiceURL == nil ? "webServiceURL" : "authenticationToken",
            "webServiceURL and authenticationToken go together")
        if let token = authenticationToken {
            require(
                token.count >= Self.minimumAuthenticationTokenLength, "authenticationToken",
                "is \(token.count) characters; Wallet needs at least \(Self.minimumAuthenticationTokenLength)")
        }
        if let webServiceURL {
            require(
                Pass.isHTTPSURL(webServiceURL), "webServiceURL",
                "'\(webServiceURL)' must be an https URL with a host")
        }
        if let appLaunchURL { require(URL(string: appLaunchURL)?.scheme != nil, "appLaunchURL", "is not a URL") }
        if let nfc {
            require(!nfc.message.isEmpty, "nfc.message", "is required")
            require(
                nfc.message.utf8.count <= Self.maximumNFCMessageLength, "nfc.message",
                "is longer than \(Self.maximumNFCMessageLength) bytes")
            // Wallet has accepted only encrypted NFC passes since iOS 11: the key is required.
            require(
                nfc.encryptionPublicKey.map(PassNFC.isP256PublicKey) ?? false, "nfc.encryptionPublicKey",
                nfc.encryptionPublicKey == nil
                    ? "is required (a Base64 X.509 SubjectPublicKeyInfo of a P-256 public key)"
                    : "is not a Base64 X.509 SubjectPublicKeyInfo of a P-256 public key")
        }
        if let fidoProfile {
            require(!isBlank(fidoProfile.relyingPartyIdentifier), "fidoProfile.relyingPartyIdentifier", "is required")
            require(!isBlank(fidoProfile.accountHash), "fidoProfile.accountHash", "is required")
        }
        if let binding = issuerBindingData {
            require(
                Hex.isValid(binding.issuerBindingData, maximumLength: .max), "issuerBindingData.issuerBindingData",
                "must be hexadecimal")
            if let learnMoreURL = binding.learnMoreURL {
                require(
                    Pass.isHTTPSURL(learnMoreURL), "issuerBindingData.learnMoreURL",
                    "'\(learnMoreURL)' must be an https URL with a host")
            }
            require(
                fidoProfile != nil, "issuerBindingData",
                "needs a fidoProfile: an account-bound pass carries both, or Wallet shows it unbound")
        }
        if let maxDistance { require(maxDistance >= 0, "maxDistance", "must not be negative") }
        return issues
    }

    /// Throws ``WalletPassesError/invalidPass(_:)`` listing every issue, unless the pass is valid.
    public func validate() throws {
        let issues = validationIssues()
        guard issues.isEmpty else { throw WalletPassesError.invalidPass(issues) }
    }
}
