/// A barcode dictionary as passes and orders share it: a format, the encoded message, its encoding and a text shown
/// near it; each document kind spells its formats its own way.
public protocol DocumentBarcode: DocumentDictionary {
    /// The symbologies the document kind names, spelled as its JSON spells them.
    associatedtype Format: RawRepresentable, CaseIterable, DocumentJSONConvertible where Format.RawValue == String
}

extension DocumentBarcode {
    /// Creates a barcode, its message encoded as ISO-8859-1 unless `messageEncoding` names another character set.
    @inlinable
    public init(format: Format, message: String, messageEncoding: String = "iso-8859-1", altText: String? = nil) {
        self.init(json: [:])
        self.format = format
        self.message = message
        self.messageEncoding = messageEncoding
        self.altText = altText
    }

    /// The symbology (required); `nil` when it is absent or one Coffer does not know.
    @inlinable
    public var format: Format? {
        get { self["format"] }
        set { self["format"] = newValue }
    }
    /// The encoded message (required).
    @inlinable
    public var message: String {
        get { self["message", default: ""] }
        set { self["message", default: ""] = newValue }
    }
    /// The IANA name of the message's character set, usually `iso-8859-1` (required).
    @inlinable
    public var messageEncoding: String {
        get { self["messageEncoding", default: ""] }
        set { self["messageEncoding", default: ""] = newValue }
    }
    /// Text shown near the barcode (not on watchOS).
    @inlinable
    public var altText: String? {
        get { self["altText"] }
        set { self["altText"] = newValue }
    }

    /// The schema of a barcode dictionary: for the conforming type's `schema`.
    package static var barcodeSchema: DocumentSchema {
        DocumentSchema(
            "barcode",
            [
                .init("format", .enumeration(Format.allCases.map(\.rawValue)), required: true),
                .init("message", .string, required: true),
                .init("messageEncoding", .string, required: true),
                .init("altText", .string),
            ])
    }
}
