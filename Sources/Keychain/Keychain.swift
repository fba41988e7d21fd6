import Foundation
import Logging
import Secrets

/// A small key–value keychain: strings, data, booleans, numbers and `Codable` values by key, with the operations
/// injected as handlers, so that tests and previews can pass their own.
///
/// ```swift
/// let keychain = Keychain(engine: KeychainEngine(backend: AppleKeychainBackend(), service: "com.example.app"))
/// keychain["openai"] = "sk-…"                  // String
/// keychain[bool: "onboarded"] = true
/// let token = keychain["openai"]               // "sk-…"
/// try keychain.set(Profile(name: "Ada"), forKey: "profile")
/// try keychain.reset()
/// ```
///
/// The throwing methods tell a missing value (`nil`) from a store that failed (a ``Secrets/SecretsError``, such as
/// `locked`). The subscripts cannot throw: they report failures to ``errorHandler`` and read as `nil`; use them
/// where a failure needs no handling beyond that report.
public struct Keychain: Sendable {
    /// Reads the bytes at a key.
    public typealias Read = @Sendable (_ key: String) throws -> Data?
    /// Writes bytes at a key.
    public typealias Write = @Sendable (_ data: Data, _ key: String) throws -> Void
    /// Deletes a key.
    public typealias Delete = @Sendable (_ key: String) throws -> Void
    /// Deletes every key.
    public typealias Reset = @Sendable () throws -> Void

    private let readHandler: Read
    private let writeHandler: Write
    private let deleteHandler: Delete
    private let resetHandler: Reset
    /// Receives the errors the subscripts cannot throw; by default it logs them (without values).
    public let errorHandler: @Sendable (_ error: any Error, _ key: String) -> Void

    /// Creates a keychain from its operations.
    public init(
        read: @escaping Read, write: @escaping Write, delete: @escaping Delete, reset: @escaping Reset,
        errorHandler: @escaping @Sendable (_ error: any Error, _ key: String) -> Void = Keychain.logError
    ) {
        self.readHandler = read
        self.writeHandler = write
        self.deleteHandler = delete
        self.resetHandler = reset
        self.errorHandler = errorHandler
    }

    /// Creates a keychain whose operations are `engine`'s.
    public init(
        engine: KeychainEngine,
        errorHandler: @escaping @Sendable (_ error: any Error, _ key: String) -> Void = Keychain.logError
    ) {
        self.init(
            read: { try engine.read($0) }, write: { try engine.write($0, $1) },
            delete: { _ = try engine.delete($0) }, reset: { try engine.reset() }, errorHandler: errorHandler)
    }

    /// Logs a failure at error level with the key and the error's description (which never carries a value).
    public static func logError(_ error: any Error, key: String) {
        Logger(label: "coffer.keychain").error(
            "keychain operation failed", metadata: ["key": "\(key)", "error": "\(error)"])
    }

    // MARK: Throwing access

    /// The bytes at `key`, or `nil`.
    public func data(forKey key: String) throws -> Data? { try readHandler(key) }

    /// Stores `data` at `key`; `nil` deletes the key.
    public func set(_ data: Data?, forKey key: String) throws {
        if let data { try writeHandler(data, key) } else { try deleteHandler(key) }
    }

    /// The UTF-8 string at `key`, or `nil`.
    ///
    /// - Throws: `decodingFailed` when the bytes are not UTF-8, and the store's errors.
    public func string(forKey key: String) throws -> String? {
        try value(forKey: key, as: "String") { String(data: $0, encoding: .utf8) }
    }

    /// Stores `string` as UTF-8 at `key`; `nil` deletes the key.
    public func set(_ string: String?, forKey key: String) throws {
        try set(string.map { Data($0.utf8) }, forKey: key)
    }

    /// The `Codable` value at `key` (stored as JSON), or `nil`.
    public func value<Value: Decodable>(_ type: Value.Type = Value.self, forKey key: String) throws -> Value? {
        guard let data = try data(forKey: key) else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw SecretsError.decodingFailed(account: key, type: "\(Value.self)", reason: "\(error)")
        }
    }

    /// Stores `value` as JSON (sorted keys) at `key`; `nil` deletes the key.
    public func set<Value: Encodable>(_ value: Value?, forKey key: String) throws {
        guard let value else { return try deleteHandler(key) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            try writeHandler(try encoder.encode(value), key)
        } catch let error as EncodingError {
            throw SecretsError.encodingFailed(type: "\(Value.self)", reason: "\(error)")
        }
    }

    /// Deletes `key`.
    public func removeValue(forKey key: String) throws { try deleteHandler(key) }

    /// Deletes every key.
    public func reset() throws { try resetHandler() }

    // MARK: Subscripts

    /// The string at `key`; setting `nil` deletes it. Failures go to ``errorHandler``.
    public subscript(key: String) -> String? {
        get { reporting(key) { try string(forKey: key) } ?? nil }
        nonmutating set { reporting(key) { try set(newValue, forKey: key) } }
    }

    /// The bytes at `key`; setting `nil` deletes them. Failures go to ``errorHandler``.
    public subscript(data key: String) -> Data? {
        get { reporting(key) { try data(forKey: key) } ?? nil }
        nonmutating set { reporting(key) { try set(newValue, forKey: key) } }
    }

    /// The Boolean at `key` (stored as `true`/`false` text); setting `nil` deletes it.
    public subscript(bool key: String) -> Bool? {
        get { reporting(key) { try scalar(key) { Bool($0) } } ?? nil }
        nonmutating set { reporting(key) { try set(newValue.map(String.init), forKey: key) } }
    }

    /// The integer at `key` (stored as decimal text); setting `nil` deletes it.
    public subscript(int key: String) -> Int? {
        get { reporting(key) { try scalar(key) { Int($0) } } ?? nil }
        nonmutating set { reporting(key) { try set(newValue.map(String.init), forKey: key) } }
    }

    /// The number at `key` (stored as text that round-trips exactly); setting `nil` deletes it.
    public subscript(double key: String) -> Double? {
        get { reporting(key) { try scalar(key) { Double($0) } } ?? nil }
        nonmutating set { reporting(key) { try set(newValue.map { "\($0)" }, forKey: key) } }
    }

    /// The `Codable` value at `key` (stored as JSON); setting `nil` deletes it.
    public subscript<Value: Codable>(key: String, as type: Value.Type) -> Value? {
        get { reporting(key) { try value(Value.self, forKey: key) } ?? nil }
        nonmutating set { reporting(key) { try set(newValue, forKey: key) } }
    }

    // MARK: Helpers

    private func value<Value>(forKey key: String, as type: String, _ decode: (Data) -> Value?) throws -> Value? {
        guard let data = try data(forKey: key) else { return nil }
        guard let value = decode(data) else {
            throw SecretsError.decodingFailed(account: key, type: type, reason: "the stored bytes are not a \(type)")
        }
        return value
    }

    private func scalar<Value>(_ key: String, _ parse: (String) -> Value?) throws -> Value? {
        guard let text = try string(forKey: key) else { return nil }
        guard let value = parse(text) else {
            throw SecretsError.decodingFailed(
                account: key, type: "\(Value.self)", reason: "the stored text is not a \(Value.self)")
        }
        return value
    }

    private func reporting<Result>(_ key: String, _ body: () throws -> Result) -> Result? {
        do {
            return try body()
        } catch {
            errorHandler(error, key)
            return nil
        }
    }
}
