import WalletDocuments

extension Order {
    /// An app of the merchant's, offered with the order.
    public struct Application: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates an app entry from its App Store identifier.
        public init(storeIdentifier: Int, launchURL: String? = nil) {
            self.init(json: [:])
            self.storeIdentifier = storeIdentifier
            self.launchURL = launchURL
        }

        /// The App Store identifier.
        public var storeIdentifier: Int {
            get { self["storeIdentifier", default: 0] }
            set { self["storeIdentifier", default: 0] = newValue }
        }
        /// The URL the app opens with.
        public var launchURL: String? {
            get { self["launchURL"] }
            set { self["launchURL"] = newValue }
        }
        /// A custom product page of the app.
        public var customProductPageIdentifier: String? {
            get { self["customProductPageIdentifier"] }
            set { self["customProductPageIdentifier"] = newValue }
        }

        /// The keys of an app entry.
        public static let schema = DocumentSchema(
            "application",
            [
                .init("storeIdentifier", .integer, required: true),
                .init("launchURL", .url(secure: false)),
                .init("customProductPageIdentifier", .string),
            ])
    }
}
