import CofferSupport
import Foundation
import Secrets
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

    /// The `fields` object: each key a field's key, each value a string or a finite number; `nil` when absent.
    func fields() throws(PassManagementFailure) -> [String: PassField.Value]? {
        guard let value = try value("fields") else { return nil }
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
}
