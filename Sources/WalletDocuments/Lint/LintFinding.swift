/// One thing a document's lint (`PassLint`, `OrderLint`) found in a pass or an order: what, where, how bad, and
/// whether a safe fix exists.
///
/// The ``code`` is stable across releases, so scripts can select or silence findings by it; the ``message`` may be
/// reworded.
public struct LintFinding: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How much a finding matters.
    public enum Severity: String, Hashable, Sendable, Codable, Comparable, CaseIterable {
        /// Wallet rejects the document, or does not show what it asks for: it is not signed.
        case error
        /// Wallet shows the document, but not as its author meant: a key ignored, a text truncated, a fallback missing.
        case warning
        /// Worth knowing: a key Apple does not document, a key only some layouts read.
        case note

        private var rank: Int {
            switch self {
            case .error: 2
            case .warning: 1
            case .note: 0
            }
        }

        /// Orders notes before warnings before errors.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// The stable identifier of the check, such as `field.change-message`.
    public var code: String
    /// How much it matters.
    public var severity: Severity
    /// Where: a JSON path in `pass.json` or `order.json` (`eventTicket.primaryFields[0].key`) or a file
    /// (`strip@2x.png`).
    public var path: String
    /// What is wrong and what Wallet does about it.
    public var message: String
    /// What `coffer pass lint --fix` would change, when the finding has a safe fix.
    public var fix: String?

    /// Creates a finding.
    public init(code: String, severity: Severity, path: String, message: String, fix: String? = nil) {
        self.code = code
        self.severity = severity
        self.path = path
        self.message = message
        self.fix = fix
    }

    /// `error[code] path: message`.
    public var description: String { "\(severity.rawValue)[\(code)] \(path): \(message)" }
}
