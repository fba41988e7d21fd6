import WalletDocuments

extension PassChecks {
    /// The formats every supported iOS shows, which a pass with a newer format needs as a fallback.
    static let fallbackBarcodeFormats: Set<PassBarcode.Format> = [.qr, .pdf417, .aztec, .code128]
    /// The formats the deprecated single `barcode` may have.
    static let legacyBarcodeFormats: Set<PassBarcode.Format> = [.qr, .pdf417, .aztec]

    /// The checks of `barcodes` and `barcode`: encodings, the legacy key's formats, and a fallback for formats older
    /// iOS cannot draw.
    static func checkBarcodes(_ pass: Pass, in context: inout LintContext) {
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
        if let first = barcodeNeedingFallback(in: barcodes)?.format, let since = first.since {
            context.error(
                "barcode.fallback", "barcodes",
                "has only formats that \(since) introduced (\(first.rawValue)): iOS 26 and earlier show no "
                    + "barcode; add a QR, PDF417, Aztec or Code 128 barcode after it",
                fix: "add a QR barcode with the same message")
        }
    }

    /// The first barcode of a format only a newer iOS draws, when no barcode older iOS draws is there too; `nil` when
    /// the barcodes need no fallback. Lint reports it and ``PassFixer`` adds a QR barcode of its message.
    static func barcodeNeedingFallback(in barcodes: [PassBarcode]) -> PassBarcode? {
        guard !barcodes.contains(where: { $0.format.map(fallbackBarcodeFormats.contains) ?? false }) else { return nil }
        return barcodes.first { $0.format?.since != nil }
    }
}
