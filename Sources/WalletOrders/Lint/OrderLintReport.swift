import WalletDocuments

/// What ``OrderLint`` found in an order.
public struct OrderLintReport: DocumentLintReport {
    /// Every finding, in the order the checks ran.
    public let findings: [LintFinding]
    /// The order as read, or `nil` when `order.json` is not a JSON dictionary.
    public let order: Order?
}
