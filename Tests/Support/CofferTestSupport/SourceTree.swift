import Foundation

/// The package's own checkout, for tests that read its files: example passes, scripts, sources.
public enum SourceTree {
    /// The package's root directory (this file is `Tests/Support/CofferTestSupport/SourceTree.swift` in it).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The file or directory at `path`, relative to the package's root.
    public static func appending(_ path: String) -> URL { root.appendingPathComponent(path) }
}
