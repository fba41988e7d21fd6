import Logging

/// A log handler that records each message at or above ``logLevel`` (warning unless set) as one line, with its
/// metadata (the logger's and the message's) and its source, then calls ``onLog``: for checking what reaches the logs.
public struct RecordingLogHandler: LogHandler {
    /// Where the lines go.
    public let recorder: Recorder
    /// The logger's metadata.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level recorded.
    public var logLevel: Logger.Level
    /// What else the handler does for each message (a real one might read its shipping token from a store).
    public var onLog: @Sendable () -> Void

    /// A handler recording into `recorder`.
    public init(recorder: Recorder, logLevel: Logger.Level = .warning, onLog: @escaping @Sendable () -> Void = {}) {
        self.recorder = recorder
        self.logLevel = logLevel
        self.onLog = onLog
    }

    /// The logger's metadata under `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Records `event` when it is at or above ``logLevel``, then calls ``onLog``.
    public func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        recorder.append("\(event.message) \(all) \(event.source)")
        onLog()
    }
}
