import Foundation

/// Checks JSON against the schemas Apple documents: each key's type, the required keys, enumerations, counts, URLs,
/// colors and dates; keys Apple does not document and keys it deprecated.
enum SchemaCheck {
    /// Checks `object`, found at `path`, against `schema`.
    static func check(
        _ object: [String: JSONValue], schema: PassSchema, at path: String, in context: inout PassLintContext
    ) {
        for entry in schema.entries where entry.isRequired && object[entry.key] == nil {
            context.error(
                "key.required", PassLintContext.path(path, entry.key),
                "is required in a \(schema.name) dictionary (\(entry.kind.phrase))")
        }
        for key in object.keys.sorted() {
            let keyPath = PassLintContext.path(path, key)
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
    static func check(_ value: JSONValue, kind: PassValueKind, at path: String, in context: inout PassLintContext) {
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
        case .date:
            guard case .string(let text) = value else { return mistyped() }
            if W3CDate.date(from: text) == nil {
                context.error(
                    "value.date", path,
                    "'\(text)' is not a W3C date with hours, minutes and a time zone, such as 2026-12-24T20:00+01:00")
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
