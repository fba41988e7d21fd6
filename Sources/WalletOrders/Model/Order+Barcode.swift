import WalletDocuments

extension Order {
    /// A barcode shown with an order or a pickup.
    public struct Barcode: DocumentBarcode {
        /// The symbologies Wallet draws for orders (spelled unlike `pass.json`'s).
        public enum Format: String, Codable, Hashable, Sendable, CaseIterable, DocumentJSONConvertible {
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

        /// The keys of a barcode.
        public static let schema = barcodeSchema
    }
}
