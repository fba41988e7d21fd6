import Foundation
import WalletDocuments

/// How `coffer pass lint` and `coffer order lint` print a report and end: one line per finding with its fix, a count,
/// and exit 1 when there are errors (or warnings, with `--strict`).
enum LintOutput {
    /// Prints `findings` as text, each with its fix.
    static func printFindings(_ findings: [LintFinding]) {
        for finding in findings {
            print("\(finding.severity.rawValue)[\(finding.code)] \(finding.path): \(finding.message)")
            if let fix = finding.fix { print("    fix: \(fix)") }
        }
    }

    /// Prints how many errors, warnings and notes `report` has.
    static func printCounts(_ report: some DocumentLintReport) {
        let notes = report.findings.count - report.errors.count - report.warnings.count
        print(
            "\(count(report.errors.count, "error")), \(count(report.warnings.count, "warning")), "
                + count(notes, "note"))
    }

    /// Throws the failure `source`'s report comes to: errors, or with `strict` warnings too.
    static func finish(_ report: some DocumentLintReport, source: String, strict: Bool) throws {
        let errors = report.errors.count
        let warnings = report.warnings.count
        guard errors + (strict ? warnings : 0) == 0 else {
            throw CommandFailure(
                "\(source): \(count(errors, "error"))" + (strict ? " and \(count(warnings, "warning"))" : ""),
                status: .notFound)
        }
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
