import Foundation

/// Turns a key's values into bytes and back, with a name the catalog report shows.
public struct Serializer<Value>: Sendable {
    /// The serializer's name (`json`, `propertyList`, `data`, or a custom one).
    public let name: String
    private let encoder: @Sendable (Value) throws -> Data
    private let decoder: @Sendable (Data) throws -> Value

    /// A custom serializer.
    public init(
        name: String, encode: @escaping @Sendable (Value) throws -> Data,
        decode: @escaping @Sendable (Data) throws -> Value
    ) {
        self.name = name
        self.encoder = encode
        self.decoder = decode
    }

    /// The bytes of `value`.
    public func encode(_ value: Value) throws -> Data { try encoder(value) }

    /// The value of `data`.
    public func decode(_ data: Data) throws -> Value { try decoder(data) }
}

extension Serializer where Value: Codable & Sendable {
    /// JSON with sorted keys (so equal values have equal bytes).
    public static var json: Serializer {
        Serializer(
            name: "json",
            encode: { value in
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                return try encoder.encode(value)
            }, decode: { try JSONDecoder().decode(Value.self, from: $0) })
    }

    /// A binary property list. A top-level scalar (a string, a number), which a property-list encoder refuses on
    /// its own, is stored as a one-element array.
    public static var propertyList: Serializer {
        Serializer(
            name: "propertyList",
            encode: { value in
                let encoder = PropertyListEncoder()
                encoder.outputFormat = .binary
                do {
                    return try encoder.encode(value)
                } catch EncodingError.invalidValue {
                    return try encoder.encode([value])
                }
            },
            decode: { data in
                let decoder = PropertyListDecoder()
                do {
                    return try decoder.decode(Value.self, from: data)
                } catch {
                    guard let wrapped = try? decoder.decode([Value].self, from: data), wrapped.count == 1 else {
                        throw error
                    }
                    return wrapped[0]
                }
            })
    }
}

extension Serializer where Value == Data {
    /// The bytes as they are.
    public static var data: Serializer {
        Serializer(name: "data", encode: { $0 }, decode: { $0 })
    }
}
