import CofferSupport
import Foundation
import Logging
import Secrets
import WalletPasses

/// A swift-log handler that writes one JSON object per line: `timestamp`, `level`, `label`, `message`, and every
/// metadata key beside them, for log collectors that parse JSON.
///
/// ```swift
/// LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
/// ```
public struct JSONLogHandler: LogHandler {
    /// The logger's label.
    public let label: String
    /// The lowest level written.
    public var logLevel: Logger.Level
    /// Metadata added to every line.
    public var metadata: Logger.Metadata = [:]
    private let write: @Sendable (Data) -> Void

    /// Creates a handler writing to standard output.
    public init(label: String, logLevel: Logger.Level = .info) {
        self.init(label: label, logLevel: logLevel) { line in FileHandle.standardOutput.write(line) }
    }

    /// Creates a handler that hands each finished line (ending in a newline) to `write`.
    public init(label: String, logLevel: Logger.Level = .info, write: @escaping @Sendable (Data) -> Void) {
        self.label = label
        self.logLevel = logLevel
        self.write = write
    }

    /// Reads or writes one metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line: the fields in key order, strings escaped as JSON requires (`/` and non-ASCII left as they
    /// are), built in one buffer without an encoder, since a busy server writes a line per request.
    public func log(event: LogEvent) {
        var fields: [(key: String, value: String)] = [
            ("timestamp", Self.timestamp()), ("level", event.level.rawValue), ("label", label),
            ("message", event.message.description),
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 })
        where !Self.fixedKeys.contains(key) {
            fields.append((key, value.description))
        }
        fields.sort { $0.key < $1.key }
        var line: [UInt8] = []
        line.reserveCapacity(256)
        line.append(UInt8(ascii: "{"))
        for (index, field) in fields.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            JSONString.append(field.key, to: &line)
            line.append(UInt8(ascii: ":"))
            JSONString.append(field.value, to: &line)
        }
        line.append(contentsOf: "}\n".utf8)
        write(Data(line))
    }

    /// The fields every line has; metadata with these keys is left out.
    private static let fixedKeys: Set<String> = ["timestamp", "level", "label", "message"]

    /// Now, in UTC, as ISO 8601 with milliseconds (`2026-11-24T01:12:39.123Z`).
    static func timestamp() -> String {
        RFC3339.milliseconds(Date())
    }
}
