import WalletDocuments

/// The binding an account-bound pass carries once a device has bound it (`issuerBindingData` in `pass.json`).
///
/// PassKit reads the key as a dictionary: `{"issuerBindingData": "<hex>", "learnMoreURL": "<url>"}`, where the
/// inner string is the hex the device sent to the callback (PassKit hex-decodes it) and `learnMoreURL` is an optional
/// page about the binding. A bare string under the outer key, as older Coffer versions wrote, is read as the inner
/// string; ``Pass/init(json:)`` rewrites it as the dictionary.
public struct PassIssuerBindingData: DocumentDictionary {
    /// Every key, as read or set.
    public var json: [String: JSONValue]

    /// Wraps a binding dictionary as it is.
    public init(json: [String: JSONValue]) { self.json = json }

    /// Creates binding data from the device's hex and an optional learn-more page.
    public init(issuerBindingData: String, learnMoreURL: String? = nil) {
        self.init(json: [:])
        self.issuerBindingData = issuerBindingData
        self.learnMoreURL = learnMoreURL
    }

    /// Reads the dictionary, or a bare hex string (the form older versions wrote).
    public init?(documentJSON: JSONValue) {
        switch documentJSON {
        case .string(let hex): self.init(issuerBindingData: hex)
        case .object(let object): self.init(json: object)
        default: return nil
        }
    }

    /// The binding data the device sent, hex-encoded (required).
    public var issuerBindingData: String {
        get { self["issuerBindingData", default: ""] }
        set { self["issuerBindingData", default: ""] = newValue }
    }
    /// A page that explains the binding to the user, if the issuer has one.
    public var learnMoreURL: String? {
        get { self["learnMoreURL"] }
        set { self["learnMoreURL"] = newValue }
    }

    /// The keys of the binding dictionary.
    public static let schema = DocumentSchema(
        "issuer binding",
        [
            .init("issuerBindingData", .string, required: true),
            .init("learnMoreURL", .url(secure: true)),
        ])
}
