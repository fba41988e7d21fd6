import Foundation

/// A file for `StreamLogHandler(label:stream:)` that writes as swift-log's own standard-error stream does: each line
/// with `fwrite` under the `FILE`'s lock, then `fflush`ed, so that every audit line costs a `write` system call,
/// as it does for an application that bootstrapped `StreamLogHandler.standardError` with its output sent to a file.
public final class LogFileStream: TextOutputStream, @unchecked Sendable {
    // Safety: `file` never changes after `init`, and every use of it holds the `FILE`'s own lock (`flockfile`).
    private let file: UnsafeMutablePointer<FILE>

    /// The file the lines go to.
    public let url: URL

    /// Opens `url` for appending, creating it if needed.
    ///
    /// - Throws: ``AuditBenchmarkError/cannotOpen(_:)`` when the file cannot be opened.
    public init(url: URL) throws(AuditBenchmarkError) {
        guard let file = fopen(url.path, "a") else { throw .cannotOpen(url.path) }
        self.file = file
        self.url = url
    }

    deinit {
        fclose(file)
    }

    /// Appends `string` and flushes it to the file.
    public func write(_ string: String) {
        var string = string
        string.withUTF8 { bytes in
            flockfile(file)
            defer { funlockfile(file) }
            if let base = bytes.baseAddress, !bytes.isEmpty {
                _ = fwrite(base, 1, bytes.count, file)
            }
            _ = fflush(file)
        }
    }
}
