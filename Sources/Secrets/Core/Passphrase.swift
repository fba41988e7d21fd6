import Foundation

/// A passphrase that never prints.
///
/// `print`, interpolation and `dump` show `<redacted>`; the bytes are only reachable through ``utf8``.
public struct Passphrase: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable, ExpressibleByStringLiteral
{
    /// The passphrase's UTF-8 bytes.
    public let utf8: Data

    /// Creates a passphrase from text.
    public init(_ text: String) {
        self.utf8 = Data(text.utf8)
    }

    /// Creates a passphrase from raw bytes (for example a file's contents).
    public init(bytes: Data) {
        self.utf8 = bytes
    }

    /// Creates a passphrase from a string literal (convenient in tests and examples).
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Whether the passphrase has no bytes at all.
    public var isEmpty: Bool { utf8.isEmpty }
    /// `<redacted>`.
    public var description: String { Redaction.placeholder }
    /// `<redacted>`.
    public var debugDescription: String { Redaction.placeholder }
    /// A mirror without children.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
