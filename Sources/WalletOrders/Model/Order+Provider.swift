import WalletDocuments

extension Order {
    /// The platform that processed an order for the merchant, with its tracking logos (iOS 17.4).
    public struct Provider: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// The platform's name.
        public var displayName: String {
            get { self["displayName", default: ""] }
            set { self["displayName", default: ""] = newValue }
        }
        /// The platform's website.
        public var url: String {
            get { self["url", default: ""] }
            set { self["url", default: ""] = newValue }
        }
        /// The name of the tracking logo for light mode, in the package.
        public var trackingLogoNameLightColorScheme: String {
            get { self["trackingLogoNameLightColorScheme", default: ""] }
            set { self["trackingLogoNameLightColorScheme", default: ""] = newValue }
        }
        /// The name of the tracking logo for dark mode, in the package.
        public var trackingLogoNameDarkColorScheme: String {
            get { self["trackingLogoNameDarkColorScheme", default: ""] }
            set { self["trackingLogoNameDarkColorScheme", default: ""] = newValue }
        }

        /// The keys of an order provider.
        public static let schema = DocumentSchema(
            "order provider",
            [
                .init("displayName", .string, required: true),
                .init("url", .url(secure: false), required: true),
                .init("trackingLogoNameLightColorScheme", .string, required: true),
                .init("trackingLogoNameDarkColorScheme", .string, required: true),
            ])
    }
}
