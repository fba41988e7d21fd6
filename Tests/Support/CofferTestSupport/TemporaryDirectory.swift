import Foundation

/// A fresh directory under the system's temporary directory, removed when the test is done with it.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates an empty directory whose name starts with `prefix`.
    public init(prefix: String = "coffer-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func appending(_ component: String) -> URL {
        url.appendingPathComponent(component)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
