import WalletDocuments

/// A barcode on a pass.
public struct PassBarcode: DocumentBarcode {
    /// The symbology (`PKBarcodeFormat…`).
    public enum Format: String, Codable, Hashable, CaseIterable, DocumentJSONConvertible {
        /// QR code.
        case qr = "PKBarcodeFormatQR"
        /// PDF417.
        case pdf417 = "PKBarcodeFormatPDF417"
        /// Aztec.
        case aztec = "PKBarcodeFormatAztec"
        /// Code 128 (not shown on watchOS).
        case code128 = "PKBarcodeFormatCode128"
        /// Code 39 (iOS 27).
        case code39 = "PKBarcodeFormatCode39"
        /// Codabar (iOS 27).
        case codabar = "PKBarcodeFormatCodabar"
        /// EAN-13 (iOS 27).
        case ean13 = "PKBarcodeFormatEAN13"
        /// Interleaved 2 of 5, ITF (iOS 27).
        case interleaved2of5 = "PKBarcodeFormatI2of5"

        /// The first iOS that shows the format; `nil` for the four every supported iOS shows.
        public var since: IOSVersion? {
            switch self {
            case .qr, .pdf417, .aztec, .code128: nil
            case .code39, .codabar, .ean13, .interleaved2of5: .iOS27
            }
        }
    }

    /// Every key, as read or set.
    public var json: [String: JSONValue]

    /// Wraps a barcode dictionary as it is.
    public init(json: [String: JSONValue]) { self.json = json }

    /// The keys of a barcode dictionary.
    public static let schema = barcodeSchema
}
