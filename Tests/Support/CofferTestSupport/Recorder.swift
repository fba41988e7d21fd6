import Foundation

/// Collects strings from any thread: what an error handler or an observer was told.
public final class Recorder: @unchecked Sendable {
    // Safety: `stored` is only touched while `lock` is held.
    private let lock = NSLock()
    private var stored: [String] = []

    /// An empty recorder.
    public init() {}

    /// Records `value`.
    public func append(_ value: String) { lock.withLock { stored.append(value) } }

    /// Everything recorded, oldest first.
    public var values: [String] { lock.withLock { stored } }
}
