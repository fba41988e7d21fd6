import WalletDocuments

extension Order {
    /// The merchant of an order.
    public struct Merchant: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a merchant with the required keys.
        public init(displayName: String, merchantIdentifier: String, url: String) {
            self.init(json: [:])
            self.displayName = displayName
            self.merchantIdentifier = merchantIdentifier
            self.url = url
        }

        /// The merchant's name (or a key of `order.strings`).
        public var displayName: String {
            get { self["displayName", default: ""] }
            set { self["displayName", default: ""] = newValue }
        }
        /// The Apple Pay merchant identifier, e.g. `merchant.com.example`.
        public var merchantIdentifier: String {
            get { self["merchantIdentifier", default: ""] }
            set { self["merchantIdentifier", default: ""] = newValue }
        }
        /// The merchant's website.
        public var url: String {
            get { self["url", default: ""] }
            set { self["url", default: ""] = newValue }
        }
        /// The name of the logo image in the package, e.g. `logo.png`.
        public var logo: String? {
            get { self["logo"] }
            set { self["logo"] = newValue }
        }
        /// The merchant's address.
        public var address: Address? {
            get { self["address"] }
            set { self["address"] = newValue }
        }
        /// A Messages for Business link.
        public var businessChatURL: String? {
            get { self["businessChatURL"] }
            set { self["businessChatURL"] = newValue }
        }
        /// Where the customer contacts the merchant.
        public var contactURL: String? {
            get { self["contactURL"] }
            set { self["contactURL"] = newValue }
        }
        /// The merchant's email address.
        public var emailAddress: String? {
            get { self["emailAddress"] }
            set { self["emailAddress"] = newValue }
        }
        /// The merchant's phone number.
        public var phoneNumber: String? {
            get { self["phoneNumber"] }
            set { self["phoneNumber"] = newValue }
        }

        /// The keys of a merchant.
        public static let schema = DocumentSchema(
            "merchant",
            [
                .init("displayName", .string, required: true),
                .init("merchantIdentifier", .string, required: true),
                .init("url", .url(secure: false), required: true),
                .init("logo", .string),
                .init("address", .dictionary(Address.self)),
                .init("businessChatURL", .url(secure: false)),
                .init("contactURL", .url(secure: false)),
                .init("emailAddress", .string),
                .init("phoneNumber", .string),
            ])
    }
}
