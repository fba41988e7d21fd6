import WalletDocuments

/// The FIDO profile that binds an account-bound pass to an account (`fidoProfile`).
public struct FIDOProfile: DocumentDictionary {
    /// Every key, as read or set.
    public var json: [String: JSONValue]

    /// Wraps a profile dictionary as it is.
    public init(json: [String: JSONValue]) { self.json = json }

    /// Creates a profile.
    public init(relyingPartyIdentifier: String, accountHash: String, keyHash: String? = nil) {
        self.init(json: [:])
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.accountHash = accountHash
        self.keyHash = keyHash
    }

    /// The relying party's identifier, the issuer's host (required).
    public var relyingPartyIdentifier: String {
        get { self["relyingPartyIdentifier", default: ""] }
        set { self["relyingPartyIdentifier", default: ""] = newValue }
    }
    /// A stable, non-guessable hash of the account (required).
    public var accountHash: String {
        get { self["accountHash", default: ""] }
        set { self["accountHash", default: ""] = newValue }
    }
    /// The hash of the device key, once the device has bound the pass.
    public var keyHash: String? {
        get { self["keyHash"] }
        set { self["keyHash"] = newValue }
    }

    /// The keys of a FIDO profile.
    public static let schema = DocumentSchema(
        "FIDO profile",
        [
            .init("relyingPartyIdentifier", .string, required: true),
            .init("accountHash", .string, required: true),
            .init("keyHash", .string),
        ])
}
