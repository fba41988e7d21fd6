/// What a document's lint found: its findings, with the errors that stop it from being signed and the warnings.
public protocol DocumentLintReport: Sendable {
    /// Every finding, in the order the checks ran.
    var findings: [LintFinding] { get }
}

extension DocumentLintReport {
    /// The findings that stop the document from being signed.
    public var errors: [LintFinding] { findings.filter { $0.severity == .error } }
    /// The warnings.
    public var warnings: [LintFinding] { findings.filter { $0.severity == .warning } }
    /// Whether the document may be signed.
    public var isValid: Bool { !findings.contains { $0.severity == .error } }
}
