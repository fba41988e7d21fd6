import WalletDocuments

extension PassSemantics {
    /// A Wi-Fi network of an event (an entry of `wifiAccess`).
    public struct WifiNetwork: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a network.
        public init(ssid: String, password: String) {
            self.init(json: [:])
            self.ssid = ssid
            self.password = password
        }

        /// The network's name (required).
        public var ssid: String {
            get { self["ssid", default: ""] }
            set { self["ssid", default: ""] = newValue }
        }
        /// The network's password (required).
        public var password: String {
            get { self["password", default: ""] }
            set { self["password", default: ""] = newValue }
        }
        /// A token that signs the device in to the network's captive portal.
        public var captiveToken: String? {
            get { self["captiveToken"] }
            set { self["captiveToken"] = newValue }
        }
        /// The captive portal's authentication server.
        public var captiveTokenAuthURL: String? {
            get { self["captiveTokenAuthURL"] }
            set { self["captiveTokenAuthURL"] = newValue }
        }

        /// The keys of a Wi-Fi network.
        public static let schema = DocumentSchema(
            "Wi-Fi network",
            [
                .init("ssid", .string, required: true),
                .init("password", .string, required: true),
                .init("captiveToken", .string),
                .init("captiveTokenAuthURL", .url(secure: false)),
            ])
    }
}
