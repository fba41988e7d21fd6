import CofferSupport
import Foundation

/// Checks JSON against the schemas Apple documents: each key's type, the required keys, enumerations, counts, URLs,
/// colors and dates; keys Apple does not document and keys it deprecated.
package enum SchemaCheck {
    /// Checks `object`, found at `path`, against `schema`.
    package static func check(
        _ object: [String: JSONValue], schema: DocumentSchema, at path: String, in context: inout LintContext
    ) {
        for entry in schema.entries where entry.isRequired && object[entry.key] == nil {
            context.error(
                "key.required", LintContext.path(path, entry.key),
                "is required in a \(schema.name) dictionary (\(entry.kind.phrase))")
        }
        for key in object.keys.sorted() {
            let keyPath = LintContext.path(path, key)
            guard let entry = schema.entry(for: key) else {
                context.note(
                    "key.unknown", keyPath,
                    "is not a key Apple documents for a \(schema.name) dictionary; Wallet ignores it, Coffer keeps it")
                continue
            }
            if let deprecation = entry.deprecation {
                context.warning("key.deprecated", keyPath, "is deprecated: \(deprecation)")
            }
            check(object[key]!, kind: entry.kind, at: keyPath, in: &context)
        }
    }

    /// Checks one value against what its key holds.
    package static func check(_ value: JSONValue, kind: SchemaValueKind, at path: String, in context: inout LintContext)
    {
        func mistyped() { context.error("key.type", path, "must be \(kind.phrase)\(found(value))") }
        switch kind {
        case .string:
            guard case .string = value else { return mistyped() }
        case .number:
            guard case .number = value else { return mistyped() }
        case .integer:
            guard case .number(let number) = value, number.rounded() == number else { return mistyped() }
        case .boolean:
            guard case .bool = value else { return mistyped() }
        case .fieldValue:
            switch value {
            case .string, .number: break
            default: mistyped()
            }
        case .any:
            break
        case .duration:
            guard case .string(let text) = value else { return mistyped() }
            if !isDuration(text) {
                context.error("value.duration", path, "'\(text)' is not an ISO 8601 duration such as PT30M or P1DT2H")
            }
        case .decimal:
            switch value {
            case .string(let text):
                if !isDecimal(text) {
                    context.error("value.decimal", path, "'\(text)' is not a decimal amount such as 12.50")
                }
            case .number(let number):
                context.warning(
                    "value.decimal-number", path,
                    "is the number \(number); Apple documents amounts as strings "
                        + "(https://developer.apple.com/documentation/walletorders/currencyamount)",
                    fix: "write it as the string \"\(number)\"")
            default: mistyped()
            }
        case .tagged(let key, let types):
            guard case .object(let object) = value else { return mistyped() }
            guard case .string(let tag)? = object[key], let type = types[tag] else {
                return context.error(
                    "value.enumeration", LintContext.path(path, key),
                    "must be one of \(types.keys.sorted().joined(separator: ", "))")
            }
            check(object, schema: type.schema, at: path, in: &context)
        case .date:
            guard case .string(let text) = value else { return mistyped() }
            if W3CDate.date(from: text) == nil {
                context.error(
                    "value.date", path,
                    "'\(text)' is not a W3C date with hours, minutes and a time zone, such as 2026-12-24T20:00+01:00")
            }
        case .dateTime:
            guard case .string(let text) = value else { return mistyped() }
            if RFC3339.date(text) == nil {
                // A W3C date without seconds (16 characters to the minute) needs only ":00".
                let withSeconds = RFC3339.date(text, secondsOptional: true).map { _ in
                    "write it as \(text.prefix(16)):00\(text.dropFirst(16))"
                }
                context.error(
                    "value.date", path,
                    "'\(text)' is not an RFC 3339 date-time with seconds and a time zone, such as 2026-12-24T20:00:00Z",
                    fix: withSeconds)
            }
        case .url(let secure):
            guard case .string(let text) = value else { return mistyped() }
            let url = URL(string: text)
            if url?.scheme == nil {
                context.error("value.url", path, "'\(text)' is not an absolute URL")
            } else if secure, url?.scheme?.lowercased() != "https" || url?.host == nil {
                context.error("value.url", path, "'\(text)' must be an https URL with a host")
            }
        case .color:
            guard case .string(let text) = value else { return mistyped() }
            if PassColor(parsing: text) == nil {
                context.error("value.color", path, "'\(text)' is not a color such as rgb(20, 30, 40)")
            }
        case .enumeration(let allowed):
            guard case .string(let text) = value else { return mistyped() }
            if !allowed.contains(text) {
                context.error("value.enumeration", path, "'\(text)' is not one of \(allowed.joined(separator: ", "))")
            }
        case .dictionary(let type):
            guard case .object(let object) = value else { return mistyped() }
            check(object, schema: type.schema, at: path, in: &context)
        case .array(let element, let maximumCount):
            guard case .array(let elements) = value else { return mistyped() }
            if let maximumCount, elements.count > maximumCount {
                context.error(
                    "array.count", path,
                    "has \(elements.count) entries; Wallet takes at most \(maximumCount) and ignores the rest")
            }
            for (index, item) in elements.enumerated() {
                check(item, kind: element, at: "\(path)[\(index)]", in: &context)
            }
        }
    }

    /// Whether `text` is an ISO 8601 duration: `P`, then years, months, weeks and days, then `T` and hours, minutes
    /// and seconds, each a whole number and its letter (seconds may have a fraction), at least one of them.
    package static func isDuration(_ text: String) -> Bool {
        guard text.hasPrefix("P") else { return false }
        let parts = text.dropFirst().split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard let dateCount = durationComponents(parts[0], units: "YMWD", fractionUnit: nil) else { return false }
        guard parts.count == 2 else { return dateCount > 0 }
        return (durationComponents(parts[1], units: "HMS", fractionUnit: "S") ?? 0) > 0
    }

    /// How many number-and-letter pairs `part` is, its letters in the order of `units` and each at most once; `nil`
    /// when it is not such a list.
    private static func durationComponents(_ part: Substring, units: String, fractionUnit: Character?) -> Int? {
        var count = 0
        var number = ""
        var allowed = Substring(units)
        for character in part {
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
                continue
            }
            guard let position = allowed.firstIndex(of: character), isDecimal(number),
                character == fractionUnit || !number.contains(".")
            else { return nil }
            allowed = allowed[allowed.index(after: position)...]
            number = ""
            count += 1
        }
        return number.isEmpty ? count : nil
    }

    /// Whether `text` is a decimal amount: digits, optionally a minus sign and a fraction (`-12.50`).
    package static func isDecimal(_ text: String) -> Bool {
        let unsigned = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// `, found a number` and the like.
    private static func found(_ value: JSONValue) -> String {
        switch value {
        case .null: ", found null"
        case .bool: ", found true or false"
        case .number: ", found a number"
        case .string: ", found a string"
        case .array: ", found an array"
        case .object: ", found a dictionary"
        }
    }
}
