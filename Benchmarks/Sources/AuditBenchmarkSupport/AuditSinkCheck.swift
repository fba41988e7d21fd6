/// What one sink kept of the reads made through a store: the audit file's verified records, the log's lines or
/// the metrics counter's total.
public struct AuditSinkCheck: Sendable, CustomStringConvertible {
    /// `file`, `log` or `metrics`.
    public var sink: String
    /// How many events the sink kept.
    public var kept: Int
    /// How many reads were made.
    public var reads: Int
    /// What the verifier found wrong with the file, if anything.
    public var problem: String?

    /// Creates a check.
    public init(sink: String, kept: Int, reads: Int, problem: String? = nil) {
        self.sink = sink
        self.kept = kept
        self.reads = reads
        self.problem = problem
    }

    /// Whether the sink kept exactly one event per read (and the file verified intact).
    public var isComplete: Bool { kept == reads && problem == nil }

    /// `file: 123456 records for 123456 reads, intact`.
    public var description: String {
        let unit = sink == "file" ? "records" : sink == "log" ? "lines" : "counted"
        var line = "\(sink): \(kept) \(unit) for \(reads) reads"
        if sink == "file" { line += problem.map { ", NOT intact: \($0)" } ?? ", verified intact" }
        return line + (kept == reads ? "" : "  LOST \(reads - kept)")
    }
}
