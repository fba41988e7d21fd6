extension PassChecks {
    /// The formats every supported iOS shows, which a pass with a newer format needs as a fallback.
    static let fallbackBarcodeFormats: Set<PassBarcode.Format> = [.qr, .pdf417, .aztec, .code128]
    /// The formats the deprecated single `barcode` may have.
    static let legacyBarcodeFormats: Set<PassBarcode.Format> = [.qr, .pdf417, .aztec]

    /// The checks of `barcodes` and `barcode`: encodings, the legacy key's formats, and a fallback for formats older
    /// iOS cannot draw.
    static func checkBarcodes(_ pass: Pass, in context: inout PassLintContext) {
        let barcodes = pass.barcodes ?? []
        for (index, barcode) in barcodes.enumerated() where barcode.json["messageEncoding"] == .string("") {
            context.error("barcode.encoding", "barcodes[\(index)].messageEncoding", "must name a text encoding")
        }
        if let legacy = pass.barcode {
            if let format = legacy.format, !legacyBarcodeFormats.contains(format) {
                context.error(
                    "barcode.legacy-format", "barcode.format",
                    "'\(format.rawValue)' cannot be the single 'barcode' (QR, PDF417 or Aztec only); use 'barcodes'")
            }
            if pass.json["barcodes"] == nil {
                context.warning(
                    "barcode.legacy-only", "barcode",
                    "is deprecated, and iOS 9 and later read only 'barcodes'",
                    fix: "add 'barcodes' with the same barcode")
            }
        }
        let newest = barcodes.compactMap(\.format).filter { $0.since != nil }
        if let first = newest.first,
            !barcodes.contains(where: { $0.format.map(fallbackBarcodeFormats.contains) ?? false })
        {
            context.error(
                "barcode.fallback", "barcodes",
                "has only formats that \(first.since!) introduced (\(first.rawValue)): iOS 26 and earlier show no "
                    + "barcode; add a QR, PDF417, Aztec or Code 128 barcode after it",
                fix: "add a QR barcode with the same message")
        }
    }
}
