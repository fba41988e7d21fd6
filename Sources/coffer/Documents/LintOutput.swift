import Foundation
import WalletDocuments

/// How `coffer pass lint` and `coffer order lint` print findings and end: one line per finding with its fix, a count,
/// and exit 1 when there are errors (or warnings, with `--strict`).
enum LintOutput {
    /// Prints `findings` as text, each with its fix.
    static func printFindings(_ findings: [LintFinding]) {
        for finding in findings {
            print("\(finding.severity.rawValue)[\(finding.code)] \(finding.path): \(finding.message)")
            if let fix = finding.fix { print("    fix: \(fix)") }
        }
    }

    /// Prints how many errors, warnings and notes `findings` has.
    static func printCounts(_ findings: [LintFinding]) {
        let errors = findings.count { $0.severity == .error }
        let warnings = findings.count { $0.severity == .warning }
        print(
            "\(count(errors, "error")), \(count(warnings, "warning")), "
                + count(findings.count - errors - warnings, "note"))
    }

    /// Throws the failure `source`'s findings come to: errors, or with `strict` warnings too.
    static func finish(_ findings: [LintFinding], source: String, strict: Bool) throws {
        let errors = findings.count { $0.severity == .error }
        let warnings = findings.count { $0.severity == .warning }
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
