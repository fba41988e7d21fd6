import Logging

/// Records each message at or above ``logLevel`` (warning unless set), with its metadata, then calls ``onLog``.
public struct RecordingLogHandler: LogHandler {
    /// Where each message goes, with its metadata.
    public let recorder: Recorder
    /// The handler's own metadata.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level recorded.
    public var logLevel: Logger.Level = .warning
    /// What else the handler does for each message (a real one might read its shipping token from a store).
    public var onLog: @Sendable () -> Void = {}

    /// One of the handler's metadata values.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Creates a handler that records into `recorder`.
    public init(recorder: Recorder, logLevel: Logger.Level = .warning, onLog: @escaping @Sendable () -> Void = {}) {
        self.recorder = recorder
        self.logLevel = logLevel
        self.onLog = onLog
    }

    /// Records the message and its metadata, then calls ``onLog``.
    public func log(event: LogEvent) {
        recorder.append("\(event.message) \(event.metadata ?? [:])")
        onLog()
    }
}
