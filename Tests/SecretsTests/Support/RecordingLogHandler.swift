import CofferTestSupport
import Logging

/// Records each message at or above ``logLevel`` (warning unless set), with its metadata, then calls ``onLog``.
struct RecordingLogHandler: LogHandler {
    let recorder: Recorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .warning
    /// What else the handler does for each message (a real one might read its shipping token from a store).
    var onLog: @Sendable () -> Void = {}

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        recorder.append("\(event.message) \(event.metadata ?? [:])")
        onLog()
    }
}
