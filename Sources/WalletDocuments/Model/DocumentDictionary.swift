import Foundation

/// A dictionary of `pass.json` or `order.json` kept as the JSON it was read from, with a typed property for every
/// key Apple documents.
///
/// Every key, known or not, stays in ``json``: decoding then encoding loses nothing, keys a later iOS adds included.
/// A typed property reads its key and answers `nil` when the key is absent or holds a value of another type (which
/// the document's lint reports, with the key's path); setting it to `nil` removes the key.
public protocol DocumentDictionary: Codable, Hashable, DocumentJSONConvertible {
    /// Every key of the dictionary, as read or set.
    var json: [String: JSONValue] { get set }

    /// Wraps a dictionary of the document as it is.
    init(json: [String: JSONValue])

    /// The keys Apple documents for this dictionary, with what each holds.
    static var schema: DocumentSchema { get }
}

extension DocumentDictionary {
    /// Decodes the dictionary, keeping every key.
    public init(from decoder: any Decoder) throws {
        self.init(json: try decoder.singleValueContainer().decode([String: JSONValue].self))
    }

    /// Encodes every key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(json)
    }

    /// The keys the schema does not name, as they were read.
    public var additionalKeys: [String: JSONValue] {
        json.filter { Self.schema.entry(for: $0.key) == nil }
    }

    /// The value under `key`, when it has the type `Value` reads.
    @inlinable
    public subscript<Value: DocumentJSONConvertible>(key: String) -> Value? {
        get {
            assert(Self.schema.entry(for: key) != nil, "\(Self.self).schema does not name '\(key)'")
            return json[key].flatMap(Value.init(documentJSON:))
        }
        set { json[key] = newValue?.documentJSON }
    }

    /// The value under `key`, or `fallback` when it is absent or of another type: for keys Wallet requires, whose
    /// absence a document's lint reports.
    @inlinable
    public subscript<Value: DocumentJSONConvertible>(key: String, default fallback: Value) -> Value {
        get { self[key] ?? fallback }
        set { json[key] = newValue.documentJSON }
    }
}

/// A Swift value that `pass.json` or `order.json` holds as JSON: text, numbers, flags, dates, colors, enumerations
/// and dictionaries.
public protocol DocumentJSONConvertible: Sendable {
    /// Reads the value from its JSON form; `nil` when the JSON is of another type.
    init?(documentJSON: JSONValue)
    /// The value's JSON form.
    var documentJSON: JSONValue { get }
}

extension String: DocumentJSONConvertible {
    /// Reads a JSON string.
    @inlinable
    public init?(documentJSON: JSONValue) {
        guard case .string(let text) = documentJSON else { return nil }
        self = text
    }

    /// A JSON string.
    @inlinable
    public var documentJSON: JSONValue { .string(self) }
}

extension Bool: DocumentJSONConvertible {
    /// Reads `true` or `false`.
    @inlinable
    public init?(documentJSON: JSONValue) {
        guard case .bool(let flag) = documentJSON else { return nil }
        self = flag
    }

    /// `true` or `false`.
    @inlinable
    public var documentJSON: JSONValue { .bool(self) }
}

extension Double: DocumentJSONConvertible {
    /// Reads a JSON number.
    @inlinable
    public init?(documentJSON: JSONValue) {
        guard case .number(let number) = documentJSON else { return nil }
        self = number
    }

    /// A JSON number.
    @inlinable
    public var documentJSON: JSONValue { .number(self) }
}

extension Int: DocumentJSONConvertible {
    /// Reads a JSON number that is a whole number.
    @inlinable
    public init?(documentJSON: JSONValue) {
        guard case .number(let number) = documentJSON, let whole = Int(exactly: number) else { return nil }
        self = whole
    }

    /// A JSON number.
    @inlinable
    public var documentJSON: JSONValue { .number(Double(self)) }
}

extension UInt16: DocumentJSONConvertible {
    /// Reads a JSON number in 0…65535.
    @inlinable
    public init?(documentJSON: JSONValue) {
        guard case .number(let number) = documentJSON, let whole = UInt16(exactly: number) else { return nil }
        self = whole
    }

    /// A JSON number.
    @inlinable
    public var documentJSON: JSONValue { .number(Double(self)) }
}

extension Date: DocumentJSONConvertible {
    /// Reads a W3C date (`2026-12-24T20:00Z`, `2026-12-24T20:00:00+01:00`, …).
    public init?(documentJSON: JSONValue) {
        guard case .string(let text) = documentJSON, let date = W3CDate.date(from: text) else { return nil }
        self = date
    }

    /// The date in UTC, with milliseconds only when it has a fraction of a second.
    public var documentJSON: JSONValue { .string(W3CDate.string(from: self)) }
}

extension JSONValue: DocumentJSONConvertible {
    /// Any JSON value, as it is.
    @inlinable
    public init?(documentJSON: JSONValue) { self = documentJSON }

    /// The value itself.
    @inlinable
    public var documentJSON: JSONValue { self }
}

extension Array: DocumentJSONConvertible where Element: DocumentJSONConvertible {
    /// Reads a JSON array whose every element has the element's type.
    @inlinable
    public init?(documentJSON: JSONValue) {
        guard case .array(let elements) = documentJSON else { return nil }
        var values: [Element] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            guard let value = Element(documentJSON: element) else { return nil }
            values.append(value)
        }
        self = values
    }

    /// A JSON array.
    @inlinable
    public var documentJSON: JSONValue { .array(map(\.documentJSON)) }
}

extension DocumentJSONConvertible where Self: RawRepresentable, RawValue == String {
    /// Reads one of the enumeration's strings; `nil` for a string it does not name, which stays in the JSON.
    @inlinable
    public init?(documentJSON: JSONValue) {
        guard case .string(let text) = documentJSON else { return nil }
        self.init(rawValue: text)
    }

    /// The enumeration's string.
    @inlinable
    public var documentJSON: JSONValue { .string(rawValue) }
}

extension DocumentJSONConvertible where Self: DocumentDictionary {
    /// Reads a JSON object.
    @inlinable
    public init?(documentJSON: JSONValue) {
        guard case .object(let object) = documentJSON else { return nil }
        self.init(json: object)
    }

    /// The dictionary's JSON object.
    @inlinable
    public var documentJSON: JSONValue { .object(json) }
}
