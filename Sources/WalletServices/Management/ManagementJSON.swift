import Foundation
import Secrets
import WalletPasses

/// Reads the management API's request bodies strictly: a JSON object, only known keys, each value of its type, with
/// a message that names the key that is wrong.
package enum ManagementJSON {
    /// The body as a JSON object whose keys are all in `keys`.
    static func object(_ body: Data, keys: Set<String>) throws(PassManagementFailure) -> [String: JSONValue] {
        guard !body.isEmpty else { throw .invalidRequest("the JSON body is missing") }
        guard case .object(let object)? = try? decoder.decode(JSONValue.self, from: body) else {
            throw .invalidRequest("the body is not a JSON object")
        }
        if let unknown = object.keys.filter({ !keys.contains($0) }).sorted().first {
            throw .invalidRequest("'\(unknown)' is not a key this request has")
        }
        return object
    }

    /// A string at `key`, or `nil` when the key is absent.
    static func string(_ object: [String: JSONValue], _ key: String) throws(PassManagementFailure) -> String? {
        switch object[key] {
        case nil: return nil
        case .string(let value): return value
        default: throw .invalidRequest("'\(key)' must be a string")
        }
    }

    /// An identifier at `key` (1–256 Unicode scalars, no control characters or line separators, not starting with
    /// whitespace), or `nil` when the key is absent.
    static func identifier(_ object: [String: JSONValue], _ key: String) throws(PassManagementFailure) -> String? {
        guard let value = try string(object, key) else { return nil }
        guard isIdentifier(value) else {
            throw .invalidRequest(
                "'\(key)' must be 1–256 characters without control characters, not starting with a space")
        }
        return value
    }

    /// Whether `value` is 1–256 Unicode scalars, none a control character or a line or paragraph separator, the
    /// first not whitespace (docs/openapi.yaml's `Identifier`).
    package static func isIdentifier(_ value: String) -> Bool {
        let scalars = value.unicodeScalars
        guard let first = scalars.first, scalars.count <= 256, !first.properties.isWhitespace else { return false }
        return !scalars.contains {
            (0...0x1F).contains($0.value) || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028
                || $0.value == 0x2029
        }
    }

    /// An RFC 3339 date-time at `key`, or `nil` when the key is absent.
    static func date(_ object: [String: JSONValue], _ key: String) throws(PassManagementFailure) -> Date? {
        guard let text = try string(object, key) else { return nil }
        guard let date = RFC3339.date(text) else {
            throw .invalidRequest("'\(key)' must be an RFC 3339 date-time such as 2026-12-31T20:00:00Z")
        }
        return date
    }

    /// The `fields` object: each key a field's key, each value a string or a finite number.
    static func fields(_ object: [String: JSONValue]) throws(PassManagementFailure) -> [String: PassField.Value] {
        guard let value = object["fields"] else { return [:] }
        guard case .object(let fields) = value else { throw .invalidRequest("'fields' must be an object") }
        guard fields.count <= PassChange.maximumFields else {
            throw .invalidRequest("'fields' may set at most \(PassChange.maximumFields) fields at once")
        }
        var values: [String: PassField.Value] = [:]
        for (key, value) in fields {
            switch value {
            case .string(let text) where text.unicodeScalars.count <= PassChange.maximumValueLength:
                values[key] = .text(text)
            case .string:
                throw .invalidRequest("'fields.\(key)' is longer than \(PassChange.maximumValueLength) characters")
            case .number(let number) where number.isFinite: values[key] = .number(number)
            default: throw .invalidRequest("'fields.\(key)' must be a string or a number")
            }
        }
        return values
    }

    /// A `PATCH` body: a JSON object with at least one of `fields`, `relevant_date`, `expiration_date` and `voided`;
    /// absent keys stay as they are.
    package static func change(_ body: Data) throws(PassManagementFailure) -> PassChange {
        let object = try object(body, keys: ["fields", "relevant_date", "expiration_date", "voided"])
        if case .object(let values)? = object["fields"], values.isEmpty {
            throw .invalidRequest("'fields' must set at least one field (leave it out to change none)")
        }
        var change = PassChange(
            fields: try fields(object), relevantDate: try date(object, "relevant_date"),
            expirationDate: try date(object, "expiration_date"))
        switch object["voided"] {
        case nil: break
        case .bool(let value): change.voided = value
        default: throw .invalidRequest("'voided' must be true or false")
        }
        guard !change.isEmpty else {
            throw .invalidRequest("give at least one of 'fields', 'relevant_date', 'expiration_date' and 'voided'")
        }
        return change
    }

    /// Made once and never reconfigured, so shared by every request.
    private static let decoder = JSONDecoder()
}
