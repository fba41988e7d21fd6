/// A barcode on a pass.
public struct PassBarcode: PassDictionary {
    /// The symbology (`PKBarcodeFormat…`).
    public enum Format: String, Codable, Hashable, CaseIterable, PassJSONConvertible {
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

    /// Creates a barcode.
    public init(format: Format, message: String, messageEncoding: String = "iso-8859-1", altText: String? = nil) {
        self.init(json: [:])
        self.format = format
        self.message = message
        self.messageEncoding = messageEncoding
        self.altText = altText
    }

    /// The symbology (required); `nil` when it is absent or one Coffer does not know.
    public var format: Format? {
        get { self["format"] }
        set { self["format"] = newValue }
    }
    /// The encoded message (required).
    public var message: String {
        get { self["message", default: ""] }
        set { self["message", default: ""] = newValue }
    }
    /// The IANA name of the message's text encoding, usually `iso-8859-1` (required).
    public var messageEncoding: String {
        get { self["messageEncoding", default: ""] }
        set { self["messageEncoding", default: ""] = newValue }
    }
    /// Text shown under the barcode (not on watchOS).
    public var altText: String? {
        get { self["altText"] }
        set { self["altText"] = newValue }
    }

    /// The keys of a barcode dictionary.
    public static let schema = PassSchema(
        "barcode",
        [
            .init("format", .enumeration(Format.allCases.map(\.rawValue)), required: true),
            .init("message", .string, required: true),
            .init("messageEncoding", .string, required: true),
            .init("altText", .string),
        ])
}
