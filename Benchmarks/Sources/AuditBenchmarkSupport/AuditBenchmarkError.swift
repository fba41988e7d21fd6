/// Why an audit benchmark could not set up its store or check what its sinks kept.
public enum AuditBenchmarkError: Error, CustomStringConvertible {
    /// A file could not be opened.
    case cannotOpen(String)
    /// The stored 64 B value did not read back.
    case unexpectedValue(String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .cannotOpen(let path): "cannot open \(path): check the scratch directory exists and is writable"
        case .unexpectedValue(let what): "\(what) did not read back the 64 B value it stored: the store is broken"
        }
    }
}
