import Foundation
import WalletDocuments

/// Checks an order as Wallet reads it: every key of `order.json` against Apple's WalletOrders reference, the rules
/// between keys (dates, the web service, identifiers, currencies), and the package's files (images each key names,
/// localizations, the size).
///
/// ```swift
/// let report = OrderLint.report(orderJSON: json, files: images)
/// for finding in report.findings { print(finding) }
/// ```
///
/// Findings have the form and severities of a pass lint's (``LintFinding``). ``DocumentSigner/sign(_:signingTime:)-(OrderPackage,_)``
/// refuses an order with errors; `coffer order lint` prints the report.
public enum OrderLint {
    /// Lints `orderJSON` with the order's other files, or `order.json` alone when `files` is `nil` (the file checks
    /// are skipped).
    public static func report(orderJSON: Data, files: [String: Data]?) -> OrderLintReport {
        var context = LintContext()
        switch try? JSONValue(parsing: orderJSON) {
        case .object(let object)?:
            return report(Order(json: object), files: files)
        case .some:
            context.error("json.invalid", "order.json", "must be a JSON dictionary")
        case nil:
            context.error("json.invalid", "order.json", "is not valid JSON")
        }
        return OrderLintReport(findings: context.findings, order: nil)
    }

    /// Lints `order` with its other files, or alone when `files` is `nil`.
    public static func report(_ order: Order, files: [String: Data]?) -> OrderLintReport {
        var context = LintContext()
        SchemaCheck.check(order.json, schema: Order.schema, at: "", in: &context)
        OrderChecks.check(order, files: files, in: &context)
        for (path, data) in (files ?? [:]).sorted(by: { $0.key < $1.key }) {
            checkFile(path, data, in: &context)
        }
        return OrderLintReport(findings: context.findings, order: order)
    }

    /// What is wrong with one file: an image that is not what its extension says, an `order.strings` that Wallet
    /// cannot read.
    static func checkFile(_ path: String, _ data: Data, in context: inout LintContext) {
        let name = path.lowercased()
        if name.hasSuffix(".jpg") || name.hasSuffix(".jpeg"), !data.starts(with: [0xFF, 0xD8, 0xFF]) {
            context.error("file.jpeg", path, "is not a JPEG image")
        } else if name.hasSuffix(".pdf"), !data.starts(with: Array("%PDF-".utf8)) {
            context.error("file.pdf", path, "is not a PDF document")
        } else {
            DocumentChecks.checkFile(path, data, stringsFile: "order.strings", in: &context)
        }
    }
}

extension Order {
    /// The findings of ``OrderLint`` for this order and its `files` (`nil`: `order.json` alone).
    public func lint(files: [String: Data]? = nil) -> OrderLintReport {
        OrderLint.report(self, files: files)
    }

    /// Throws ``WalletDocumentError/invalidOrder(_:)`` with every error ``lint(files:)`` finds in `order.json` alone.
    public func validate() throws {
        let errors = lint().errors
        guard errors.isEmpty else { throw WalletDocumentError.invalidOrder(errors) }
    }
}
