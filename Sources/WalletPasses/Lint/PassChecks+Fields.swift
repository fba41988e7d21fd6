import Foundation
import WalletDocuments

extension PassChecks {
    /// About how many characters fit on an iPhone-wide pass before Wallet truncates a field's value, by list: Coffer's
    /// estimate at the default text size (Apple publishes no limits), so exceeding it is a warning.
    static let visibleCharacters: [String: Int] = [
        "headerFields": 14, "primaryFields": 20, "secondaryFields": 24, "auxiliaryFields": 24,
        "footerFields": 24,
    ]
    /// About how many characters of a boarding pass's primary fields (the origin and destination) fit.
    static let boardingPrimaryCharacters = 10
    /// About how many characters of a label or `logoText` fit.
    static let labelCharacters = 20

    /// The most fields of each list Wallet shows on the front of a pass (more go to the details screen only).
    static func maximumFieldCount(list: String, style: Pass.Style?) -> Int? {
        switch (list, style) {
        case ("headerFields", nil): 1
        case ("headerFields", _): 3
        case ("primaryFields", .boardingPass): 2
        case ("primaryFields", nil): 4
        case ("primaryFields", _): 1
        case ("secondaryFields", _), ("auxiliaryFields", .some(.eventTicket)): 4
        case ("auxiliaryFields", .some(.boardingPass)): 5
        case ("auxiliaryFields", _): 4
        case ("footerFields", nil): 1
        default: nil
        }
    }

    /// The checks of every field: unique keys, change messages, formatting keys that fit the value, lengths, counts.
    static func checkFields(_ pass: Pass, in context: inout LintContext) {
        check(pass.fields, style: pass.style, at: pass.style.rawValue, in: &context)
        if let poster = pass.posterGeneric {
            check(poster, style: nil, at: "posterGeneric", in: &context)
        }
        if let logoText = pass.logoText, logoText.count > labelCharacters {
            context.warning(
                "field.text-length", "logoText",
                "is \(logoText.count) characters; Wallet truncates it after about \(labelCharacters)")
        }
    }

    /// Checks one style dictionary (`style` is `nil` for `posterGeneric`).
    static func check(_ fields: PassFields, style: Pass.Style?, at path: String, in context: inout LintContext) {
        var seen: [String: String] = [:]
        for list in PassFields.lists {
            guard let entries: [PassField] = fields[list] else { continue }
            if let maximum = maximumFieldCount(list: list, style: style), entries.count > maximum {
                context.warning(
                    "field.count", "\(path).\(list)",
                    "has \(entries.count) fields; Wallet shows \(maximum) on the front, the rest only in the details")
            }
            for (index, field) in entries.enumerated() {
                let fieldPath = "\(path).\(list)[\(index)]"
                if !field.key.isEmpty {
                    if let first = seen[field.key] {
                        context.error(
                            "field.duplicate-key", "\(fieldPath).key",
                            "'\(field.key)' is also the key of \(first); field keys must be unique in a pass")
                    } else {
                        seen[field.key] = fieldPath
                    }
                }
                check(field, list: list, style: style, at: fieldPath, in: &context)
            }
        }
    }

    /// Checks one field.
    static func check(
        _ field: PassField, list: String, style: Pass.Style?, at path: String, in context: inout LintContext
    ) {
        if case .string(let key)? = field.json["key"], DocumentChecks.isBlank(key) {
            context.error("field.blank-key", "\(path).key", "must not be empty")
        }
        if let message = field.changeMessage, !message.contains("%@"), !context.isLocalizedKey(message) {
            context.error(
                "field.change-message", "\(path).changeMessage",
                "must contain %@, which Wallet replaces with the new value in the update notification")
        }
        for (key, code) in ignoredFormatting(of: field, list: list) {
            let reason =
                switch code {
                case "field.date-style": "applies to date values; the value is not a W3C date, so Wallet ignores it"
                case "field.number-style": "applies to number values; the value is not a number, so Wallet ignores it"
                default: "is not allowed on \(list); Wallet ignores it"
                }
            context.warning(code, "\(path).\(key)", reason, fix: "remove '\(key)'")
        }
        if let code = field.currencyCode, !DocumentChecks.isCurrencyCode(code) {
            context.error(
                "field.currency-code", "\(path).currencyCode", "'\(code)' is not an ISO 4217 code such as USD")
        }
        if field.json["dataDetectorTypes"] != nil, list != "backFields" {
            context.warning(
                "field.data-detectors", "\(path).dataDetectorTypes",
                "applies to back fields only; Wallet ignores it here")
        }
        if let row = field.json["row"] {
            if list != "auxiliaryFields" {
                context.warning("field.row", "\(path).row", "applies to auxiliary fields only; Wallet ignores it here")
            } else if row != .number(0), row != .number(1) {
                context.error("field.row", "\(path).row", "must be 0 or 1")
            }
        }
        checkLength(field, list: list, style: style, at: path, in: &context)
    }

    /// The formatting keys of `field` in `list` that Wallet ignores, each with the code of its finding: date styles on
    /// a value that is not a date, number styles on one that is not a number, an alignment on primary and back fields.
    /// Lint warns about them and ``PassFixer`` removes them.
    static func ignoredFormatting(of field: PassField, list: String) -> [(key: String, code: String)] {
        var candidates: [(key: String, code: String)] = []
        let isDate = if case .string(let text)? = field.json["value"] { W3CDate.date(from: text) != nil } else { false }
        let isNumber = if case .number? = field.json["value"] { true } else { false }
        if !isDate {
            candidates += ["dateStyle", "timeStyle", "isRelative", "ignoresTimeZone"].map { ($0, "field.date-style") }
        }
        if !isNumber { candidates += ["numberStyle", "currencyCode"].map { ($0, "field.number-style") } }
        if list == "primaryFields" || list == "backFields" {
            candidates.append(("textAlignment", "field.text-alignment"))
        }
        return candidates.filter { field.json[$0.key] != nil }
    }

    /// Warns about a value or label longer than Wallet shows without truncating.
    static func checkLength(
        _ field: PassField, list: String, style: Pass.Style?, at path: String, in context: inout LintContext
    ) {
        if let label = field.label, label.count > labelCharacters, list != "backFields" {
            context.warning(
                "field.text-length", "\(path).label",
                "is \(label.count) characters; Wallet truncates labels after about \(labelCharacters)")
        }
        guard case .string(let text)? = field.json["value"], W3CDate.date(from: text) == nil,
            var budget = visibleCharacters[list]
        else { return }
        if style == .boardingPass, list == "primaryFields" { budget = boardingPrimaryCharacters }
        if text.count > budget {
            context.warning(
                "field.text-length", "\(path).value",
                "is \(text.count) characters; Wallet truncates \(list) values after about \(budget) on an iPhone")
        }
    }
}
