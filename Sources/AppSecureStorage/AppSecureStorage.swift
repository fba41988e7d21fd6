import Foundation
import Secrets

/// `@AppStorage`'s twin for secrets: a value kept in the Keychain (the Secret Service on Linux), not in
/// `UserDefaults`.
///
/// ```swift
/// @AppSecureStorage("openaikey") var openAIKey: String?
/// @AppSecureStorage("session", accessibility: .afterFirstUnlockThisDeviceOnly) var session: Session?
/// ```
///
/// Setting `nil`, or an empty string, deletes the item. Strings are stored as their UTF-8 bytes (so other tools
/// read them as text); other values as JSON. Every wrapper on the same key and store sees the same value, and a
/// change through one notifies the others' observers (``SecureStorage/observe(_:onChange:)``); in SwiftUI the
/// views using the key are updated. Store errors (a locked keychain, say) go to the store's
/// ``SecureStorage/errorHandler`` instead of being swallowed, and read as `nil`.
@propertyWrapper
public struct AppSecureStorage<Value: Codable> {
    /// The item's key.
    public let key: String
    /// When the item may be read.
    public let accessibility: AccessPolicy.Accessibility
    /// The store it lives in.
    public let store: SecureStorage
    /// How a read prompts when the item needs the user; `nil`: as the store's ``SecureStorage/authentication``.
    public let authentication: AuthenticationContext?
    let tracker: ChangeTracker

    /// Creates a wrapper for the value at `key` in `store`, readable per `accessibility` (when unlocked, by
    /// default), read with `authentication` when the store's items need the user.
    public init(
        _ key: String, accessibility: AccessPolicy.Accessibility = .whenUnlocked, store: SecureStorage = .standard,
        authentication: AuthenticationContext? = nil
    ) {
        self.key = key
        self.accessibility = accessibility
        self.store = store
        self.authentication = authentication
        self.tracker = ChangeTracker(store: store, key: key)
    }

    /// The value, or `nil` when there is none (or the store failed: see ``SecureStorage/errorHandler``).
    public var wrappedValue: Value? {
        get { Self.read(key, from: store, authentication: authentication) }
        nonmutating set { Self.write(newValue, key, accessibility, to: store) }
    }

    /// Reads and decodes the value at `key` (strings from UTF-8, anything else from JSON).
    static func read(_ key: String, from store: SecureStorage, authentication: AuthenticationContext?) -> Value? {
        guard let data = store.read(key, authentication: authentication) else { return nil }
        if Value.self == String.self {
            return String(data: data, encoding: .utf8) as? Value
        }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            store.errorHandler(
                SecretsError.decodingFailed(account: key, type: "\(Value.self)", reason: "\(error)"), key)
            return nil
        }
    }

    /// Encodes and writes `value` at `key`; `nil` or an empty string deletes it. A value that cannot be encoded
    /// is reported and nothing is written, so the stored value is kept.
    static func write(
        _ value: Value?, _ key: String, _ accessibility: AccessPolicy.Accessibility, to store: SecureStorage
    ) {
        do {
            // Not `value.flatMap(encode)`: a partially applied static method captures the (non-Sendable) metatype.
            var data: Data?
            if let value { data = try encode(value) }
            store.write(data, key, accessibility: accessibility)
        } catch {
            store.errorHandler(error, key)
        }
    }

    /// The bytes to store, or `nil` to delete (an empty string deletes too).
    private static func encode(_ value: Value) throws -> Data? {
        if let string = value as? String {
            return string.isEmpty ? nil : Data(string.utf8)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(value)
        } catch {
            throw SecretsError.encodingFailed(type: "\(Value.self)", reason: "\(error)")
        }
    }
}
