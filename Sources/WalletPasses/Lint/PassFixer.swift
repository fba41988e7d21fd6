import Foundation
import WalletDocuments

/// The safe fixes of `coffer pass lint --fix`: changes that keep what the pass shows on every iOS and add what an
/// older or newer iOS needs to show it too.
///
/// Each fix answers one finding of ``PassLint`` whose ``LintFinding/fix`` says what it changes; nothing else in the
/// pass is touched (every key is kept as read).
public enum PassFixer {
    /// One change a fix made.
    public struct Change: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The code of the finding it answers.
        public let code: String
        /// Where it changed the pass.
        public let path: String
        /// What it changed.
        public let summary: String

        /// `path: summary`.
        public var description: String { "\(path): \(summary)" }
    }

    /// The fixes for `pass`, applied; and what they changed (empty when nothing needed fixing).
    public static func fix(_ pass: Pass) -> (pass: Pass, changes: [Change]) {
        var pass = pass
        var changes: [Change] = []
        addGenericFallback(&pass, &changes)
        addBarcodeFallback(&pass, &changes)
        copyLegacyBarcode(&pass, &changes)
        addRelevantDates(&pass, &changes)
        renameRelevantDateEntries(&pass, &changes)
        removeIgnoredFormatting(&pass, &changes)
        return (pass, changes)
    }

    /// A `generic` dictionary made of a `posterGeneric` one, for a pass that has no legacy style.
    static func addGenericFallback(_ pass: inout Pass, _ changes: inout [Change]) {
        guard let poster = pass.posterGeneric, Pass.Style.allCases.allSatisfy({ pass.json[$0.rawValue] == nil })
        else { return }
        // A generic pass shows one primary field: the others move to the secondary row, the footer to the
        // auxiliary row, the additional information to the back.
        let primary = poster.primaryFields ?? []
        var generic = PassFields(
            headerFields: poster.headerFields, primaryFields: primary.isEmpty ? nil : [primary[0]],
            secondaryFields: Array(primary.dropFirst()) + (poster.secondaryFields ?? []),
            auxiliaryFields: (poster.auxiliaryFields ?? []) + (poster.footerFields ?? []),
            backFields: (poster.backFields ?? []) + (poster.additionalInfoFields ?? []))
        for list in PassFields.lists where (generic[list] as [PassField]?)?.isEmpty == true {
            generic.json[list] = nil
        }
        pass.json[Pass.Style.generic.rawValue] = generic.documentJSON
        changes.append(
            Change(
                code: "poster-generic.fallback", path: "generic",
                summary: "added the fields of posterGeneric, which iOS 26 and earlier show"))
    }

    /// A QR barcode after barcodes that only iOS 27 draws.
    static func addBarcodeFallback(_ pass: inout Pass, _ changes: inout [Change]) {
        guard var barcodes = pass.barcodes, let first = PassChecks.barcodeNeedingFallback(in: barcodes) else { return }
        barcodes.append(
            PassBarcode(
                format: .qr, message: first.message, messageEncoding: first.messageEncoding, altText: first.altText))
        pass.barcodes = barcodes
        changes.append(
            Change(
                code: "barcode.fallback", path: "barcodes[\(barcodes.count - 1)]",
                summary: "added a QR barcode of the same message, which iOS 26 and earlier show"))
    }

    /// `barcodes` holding the deprecated single `barcode`.
    static func copyLegacyBarcode(_ pass: inout Pass, _ changes: inout [Change]) {
        guard let legacy = pass.json["barcode"], pass.json["barcodes"] == nil else { return }
        pass.json["barcodes"] = .array([legacy])
        changes.append(
            Change(code: "barcode.legacy-only", path: "barcodes", summary: "added the barcode of 'barcode'"))
    }

    /// `relevantDates` holding a lone `relevantDate`, which stays for iOS 17 and earlier.
    static func addRelevantDates(_ pass: inout Pass, _ changes: inout [Change]) {
        guard let date = pass.json["relevantDate"], pass.json["relevantDates"] == nil else { return }
        pass.json["relevantDates"] = .array([.object(["date": date])])
        changes.append(
            Change(
                code: "relevance.relevant-date", path: "relevantDates",
                summary: "added an entry with the date of relevantDate (kept for iOS 17 and earlier)"))
    }

    /// `date` for `relevantDate` in `relevantDates` entries.
    static func renameRelevantDateEntries(_ pass: inout Pass, _ changes: inout [Change]) {
        guard case .array(var entries)? = pass.json["relevantDates"] else { return }
        for index in entries.indices {
            guard case .object(var entry) = entries[index], entry["date"] == nil,
                let date = entry.removeValue(forKey: "relevantDate")
            else { continue }
            entry["date"] = date
            entries[index] = .object(entry)
            changes.append(
                Change(
                    code: "relevance.entry-spelling", path: "relevantDates[\(index)]",
                    summary: "renamed relevantDate to date"))
        }
        pass.json["relevantDates"] = .array(entries)
    }

    /// Removes formatting keys Wallet ignores on a field: date styles on values that are not dates, number styles on
    /// values that are not numbers, an alignment on primary and back fields.
    static func removeIgnoredFormatting(_ pass: inout Pass, _ changes: inout [Change]) {
        for styleKey in Pass.Style.allCases.map(\.rawValue) + ["posterGeneric"] {
            guard var fields: PassFields = pass[styleKey] else { continue }
            for list in PassFields.lists {
                guard var entries: [PassField] = fields[list] else { continue }
                for index in entries.indices {
                    for (key, code) in PassChecks.ignoredFormatting(of: entries[index], list: list) {
                        entries[index].json[key] = nil
                        changes.append(
                            Change(
                                code: code, path: "\(styleKey).\(list)[\(index)].\(key)",
                                summary: "removed it: Wallet ignores it on this field"))
                    }
                }
                fields[list] = entries
            }
            pass.json[styleKey] = fields.documentJSON
        }
    }
}
