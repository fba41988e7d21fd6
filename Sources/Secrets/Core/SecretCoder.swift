import Foundation

/// A secret type: how it turns into bytes and back, and where it is stored.
///
/// Conforming types get redaction for free: `print`, string interpolation, `debugPrint` and `dump` show
/// `<redacted>` instead of the secret's fields. `Codable` types get ``encode()`` and ``init(decode:)`` as JSON
/// with sorted keys, so equal values always produce equal bytes.
///
/// ```swift
/// struct NotionSecret: Codable, SecretCoder {
///     static let id = ServiceID<NotionSecret>(path: "database/notion")
///     var token: String
/// }
/// ```
public protocol SecretCoder: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Rebuilds a value from the bytes ``encode()`` produced.
    init(decode data: Data) throws
    /// The bytes to store.
    func encode() throws -> Data
    /// Where values of this type are stored.
    static var id: ServiceID<Self> { get }
    /// Checks that the type declares for its own values, reported by ``SecretsPreflight``.
    ///
    /// The default returns no issues. Return, for example, a warning when a token is about to expire.
    func validate() -> [PreflightIssue]
}

extension SecretCoder {
    /// `<redacted>`: a secret never prints its fields.
    public var description: String { Redaction.placeholder }
    /// `<redacted>`: a secret never prints its fields.
    public var debugDescription: String { Redaction.placeholder }
    /// A mirror without children, so that `dump` and debuggers show no fields.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
    /// No issues.
    public func validate() -> [PreflightIssue] { [] }
}

extension SecretCoder where Self: Codable {
    /// Decodes the value from JSON.
    public init(decode data: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: data)
    }

    /// Encodes the value as JSON with sorted keys, so equal values give equal bytes.
    public func encode() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// What a secret prints instead of itself.
public enum Redaction {
    /// The text shown in place of a secret value.
    public static let placeholder = "<redacted>"
}
