import CofferSupport
import Foundation
import Secrets
import WalletDocuments
import WalletPasses

/// A management API request body as its `Decodable` initialiser reads it: a JSON object with only the keys the
/// request has, each value of its type, and a message that names the key that is wrong.
package struct ManagementBody {
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { nil }
    }

    private let container: KeyedDecodingContainer<Key>

    /// Opens the object `decoder` reads, refusing any key not in `keys`.
    init(_ decoder: any Decoder, keys: Set<String>) throws(PassManagementFailure) {
        do {
            container = try decoder.container(keyedBy: Key.self)
        } catch {
            throw .invalidRequest("the body is not a JSON object")
        }
        if let unknown = container.allKeys.map(\.stringValue).filter({ !keys.contains($0) }).sorted().first {
            throw .invalidRequest("'\(unknown)' is not a key this request has")
        }
    }

    /// The value at `key` (`null` included), or `nil` when the key is absent.
    func value(_ key: String) throws(PassManagementFailure) -> JSONValue? {
        guard container.contains(Key(key)) else { return nil }
        do {
            return try container.decode(JSONValue.self, forKey: Key(key))
        } catch {
            throw .invalidRequest("'\(key)' is not valid")
        }
    }

    /// A string at `key`, or `nil` when the key is absent.
    func string(_ key: String) throws(PassManagementFailure) -> String? {
        switch try value(key) {
        case nil: return nil
        case .string(let value): return value
        default: throw .invalidRequest("'\(key)' must be a string")
        }
    }

    /// An identifier at `key` (``isIdentifier(_:)``), or `nil` when the key is absent.
    func identifier(_ key: String) throws(PassManagementFailure) -> String? {
        guard let value = try string(key) else { return nil }
        guard Self.isIdentifier(value) else {
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
    func date(_ key: String) throws(PassManagementFailure) -> Date? {
        guard let text = try string(key) else { return nil }
        guard let date = RFC3339.date(text) else {
            throw .invalidRequest("'\(key)' must be an RFC 3339 date-time such as 2026-12-31T20:00:00Z")
        }
        return date
    }

    /// `true` or `false` at `key`, or `nil` when the key is absent.
    func bool(_ key: String) throws(PassManagementFailure) -> Bool? {
        switch try value(key) {
        case nil: return nil
        case .bool(let value): return value
        default: throw .invalidRequest("'\(key)' must be true or false")
        }
    }

    /// The `fields` object, or `nil` when absent: each key a field's key, each value a string or a finite number
    /// (the new value), or an object of `value`, `label` and `change_message`, each a string, a localized text
    /// (`{"en": "Gate", "de": "Tor"}`) or, for a value, a number.
    func fields() throws(PassManagementFailure) -> ManagedFields? {
        guard let value = try value("fields") else { return nil }
        guard case .object(let fields) = value else { throw .invalidRequest("'fields' must be an object") }
        guard fields.count <= PassChange.maximumFields else {
            throw .invalidRequest("'fields' may set at most \(PassChange.maximumFields) fields at once")
        }
        var parsed = ManagedFields()
        for (key, value) in fields {
            switch value {
            case .object(let slots):
                var texts: [PassFieldText.Slot: PassFieldText] = [:]
                for (name, slotValue) in slots {
                    guard let slot = Self.slots[name] else {
                        throw .invalidRequest("'fields.\(key).\(name)' is not one of value, label and change_message")
                    }
                    texts[slot] = try Self.text(slotValue, at: "fields.\(key).\(name)", number: slot == .value)
                }
                guard !texts.isEmpty else {
                    throw .invalidRequest("'fields.\(key)' must set at least one of value, label and change_message")
                }
                parsed.texts[key] = texts
            default:
                guard case .plain(let plain) = try Self.text(value, at: "fields.\(key)", number: true, localized: false)
                else { continue }
                parsed.values[key] = plain
            }
        }
        return parsed
    }

    private static let slots: [String: PassFieldText.Slot] = [
        "value": .value, "label": .label, "change_message": .changeMessage,
    ]

    /// A field's text at `path`: a string, a number (where `number`), or (where `localized`) an object of language
    /// identifiers to strings.
    private static func text(_ value: JSONValue, at path: String, number: Bool, localized: Bool = true)
        throws(PassManagementFailure) -> PassFieldText
    {
        func checked(_ text: String, at path: String) throws(PassManagementFailure) -> String {
            guard text.unicodeScalars.count <= PassChange.maximumValueLength else {
                throw .invalidRequest("'\(path)' is longer than \(PassChange.maximumValueLength) characters")
            }
            return text
        }
        switch value {
        case .string(let text): return .plain(.text(try checked(text, at: path)))
        case .number(let value) where number && value.isFinite: return .plain(.number(value))
        case .object(let languages) where localized:
            var values: [String: String] = [:]
            for (language, text) in languages {
                guard case .string(let text) = text else {
                    throw .invalidRequest("'\(path).\(language)' must be a string")
                }
                values[language] = try checked(text, at: "\(path).\(language)")
            }
            do {
                return .localized(try LocalizedText(values))
            } catch {
                throw .invalidRequest("'\(path)': \(error)")
            }
        default:
            let kinds = [number ? "a number" : nil, localized ? "an object of languages" : nil].compactMap { $0 }
            throw .invalidRequest("'\(path)' must be a string" + kinds.map { " or \($0)" }.joined())
        }
    }
}

/// The `fields` of a management request: plain values, and texts that may be localized, by field key.
package struct ManagedFields: Hashable, Sendable {
    /// New values, the same in every language.
    package var values: [String: PassField.Value] = [:]
    /// New values, labels and change messages, each plain or localized.
    package var texts: [String: [PassFieldText.Slot: PassFieldText]] = [:]

    /// No fields.
    package init(values: [String: PassField.Value] = [:], texts: [String: [PassFieldText.Slot: PassFieldText]] = [:]) {
        self.values = values
        self.texts = texts
    }

    /// Whether it sets no field.
    package var isEmpty: Bool { values.isEmpty && texts.isEmpty }
}
