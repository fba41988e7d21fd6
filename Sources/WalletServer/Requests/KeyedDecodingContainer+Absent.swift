extension KeyedDecodingContainer {
    /// The value at `key`, or `nil` when the key is absent; unlike `decodeIfPresent`, a `null` there is an error, as
    /// docs/openapi.yaml has it for the API's optional keys.
    func decodeUnlessAbsent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        contains(key) ? try decode(type, forKey: key) : nil
    }
}
