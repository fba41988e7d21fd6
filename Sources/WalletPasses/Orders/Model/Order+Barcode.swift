extension Order {
    /// A barcode shown with an order or a pickup.
    public struct Barcode: PassDictionary {
        /// The symbologies Wallet draws for orders (spelled unlike `pass.json`'s).
        public enum Format: String, Codable, Hashable, Sendable, CaseIterable, PassJSONConvertible {
            /// QR code.
            case qr
            /// PDF417.
            case pdf417
            /// Aztec.
            case aztec
            /// Code 128.
            case code128
        }

        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a barcode, its message encoded as ISO-8859-1.
        public init(format: Format, message: String, messageEncoding: String = "iso-8859-1", altText: String? = nil) {
            self.init(json: [:])
            self.format = format
            self.message = message
            self.messageEncoding = messageEncoding
            self.altText = altText
        }

        /// The symbology; `nil` when absent or unknown.
        public var format: Format? {
            get { self["format"] }
            set { self["format"] = newValue }
        }
        /// The encoded message.
        public var message: String {
            get { self["message", default: ""] }
            set { self["message", default: ""] = newValue }
        }
        /// The IANA character set of the message, typically `iso-8859-1`.
        public var messageEncoding: String {
            get { self["messageEncoding", default: ""] }
            set { self["messageEncoding", default: ""] = newValue }
        }
        /// Text shown near the barcode.
        public var altText: String? {
            get { self["altText"] }
            set { self["altText"] = newValue }
        }

        /// The keys of a barcode.
        public static let schema = PassSchema(
            "barcode",
            [
                .init("format", .enumeration(Format.allCases.map(\.rawValue)), required: true),
                .init("message", .string, required: true),
                .init("messageEncoding", .string, required: true),
                .init("altText", .string),
            ])
    }
}
