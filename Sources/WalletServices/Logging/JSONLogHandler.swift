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
    private let write: @Sendable ([UInt8]) -> Void

    /// Creates a handler writing to standard output.
    public init(label: String, logLevel: Logger.Level = .info) {
        self.init(label: label, logLevel: logLevel, bytes: { Self.write($0, to: STDOUT_FILENO) })
    }

    /// Creates a handler writing to standard error.
    public static func standardError(label: String, logLevel: Logger.Level = .info) -> JSONLogHandler {
        JSONLogHandler(label: label, logLevel: logLevel, bytes: { Self.write($0, to: STDERR_FILENO) })
    }

    /// Creates a handler that hands each finished line (ending in a newline) to `write`.
    public init(label: String, logLevel: Logger.Level = .info, write: @escaping @Sendable (Data) -> Void) {
        self.init(label: label, logLevel: logLevel, bytes: { write(Data($0)) })
    }

    private init(label: String, logLevel: Logger.Level, bytes write: @escaping @Sendable ([UInt8]) -> Void) {
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
        let eventMetadata = event.metadata ?? [:]
        for (key, value) in metadata where eventMetadata[key] == nil && !Self.fixedKeys.contains(key) {
            fields.append((key, value.description))
        }
        for (key, value) in eventMetadata where !Self.fixedKeys.contains(key) {
            fields.append((key, value.description))
        }
        fields.sort { $0.key < $1.key }
        var line: [UInt8] = []
        line.reserveCapacity(384)
        line.append(UInt8(ascii: "{"))
        for (index, field) in fields.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            JSONString.append(field.key, to: &line)
            line.append(UInt8(ascii: ":"))
            JSONString.append(field.value, to: &line)
        }
        line.append(contentsOf: "}\n".utf8)
        write(line)
    }

    /// Writes `line` to `descriptor` with `write(2)`, without Foundation's `FileHandle` in between, for a line per
    /// request; a log that cannot be written drops the line rather than stop the server.
    private static func write(_ line: [UInt8], to descriptor: Int32) {
        _ = line.withUnsafeBytes { Descriptors.writeAll($0, to: descriptor) }
    }

    /// The fields every line has; metadata with these keys is left out.
    private static let fixedKeys: Set<String> = ["timestamp", "level", "label", "message"]

    /// Now, in UTC, as ISO 8601 with milliseconds (`2026-11-24T01:12:39.123Z`).
    static func timestamp() -> String {
        RFC3339.milliseconds(Date())
    }
}
