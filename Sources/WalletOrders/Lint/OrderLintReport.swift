import WalletDocuments

/// What ``OrderLint`` found in an order.
public struct OrderLintReport: Sendable {
    /// Every finding, in the order the checks ran.
    public let findings: [LintFinding]
    /// The order as read, or `nil` when `order.json` is not a JSON dictionary.
    public let order: Order?

    /// The findings that stop an order from being signed.
    public var errors: [LintFinding] { findings.filter { $0.severity == .error } }
    /// The warnings.
    public var warnings: [LintFinding] { findings.filter { $0.severity == .warning } }
    /// Whether the order may be signed.
    public var isValid: Bool { errors.isEmpty }
}
