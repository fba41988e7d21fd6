import Foundation

/// The name of a supplier of key material: keys choose one (``StorageKey/keyMaterialSource``), the router maps
/// each to a ``KeyMaterialProviding`` (``StorageConfiguration/keyMaterialProviders``).
///
/// ```swift
/// extension KeyMaterialSource {
///     static let userPassphrase = KeyMaterialSource("user-passphrase")
/// }
/// ```
public struct KeyMaterialSource: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The source's name.
    public let rawValue: String

    /// Names a source.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Names a source.
    public init(_ name: String) {
        self.init(rawValue: name)
    }

    /// The router's default: a random 256-bit key kept in the platform key store, made on first use.
    public static let `default` = KeyMaterialSource("default")

    /// The source's name.
    public var description: String { rawValue }

    /// Decodes the name as a bare string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the name as a bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
