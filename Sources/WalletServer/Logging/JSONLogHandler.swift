import Foundation
import Logging

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

    /// Writes one line.
    public func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            fields[key] = value.description
        }
        fields["timestamp"] = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = event.message.description
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(fields) else { return }
        line.append(UInt8(ascii: "\n"))
        write(line)
    }
}
