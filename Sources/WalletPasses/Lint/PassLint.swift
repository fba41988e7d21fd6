import Foundation
import WalletDocuments

/// Checks a pass as Apple's devices read it: every key against Apple's documentation through iOS 27, the rules of
/// each style and layout, the images; and tells how iOS 17, 18, 26 and 27 each show the pass.
///
/// ```swift
/// let report = PassLint.report(passJSON: json, files: images)
/// for finding in report.findings { print(finding) }
/// ```
///
/// ``PassPackage`` and ``PreparedPassTemplate`` refuse to sign a pass with errors; `coffer pass lint` prints the
/// report.
public enum PassLint {
    /// Lints `passJSON` with the pass's other files (images, localizations), or `pass.json` alone when `files` is
    /// `nil` (the image checks are skipped).
    public static func report(passJSON: Data, files: [String: Data]?) -> PassLintReport {
        var context = LintContext()
        switch try? JSONValue(parsing: passJSON) {
        case .object(let object)?:
            return report(Pass(json: object), files: files)
        case .some:
            context.error("json.invalid", "pass.json", "must be a JSON dictionary")
        case nil:
            context.error("json.invalid", "pass.json", "is not valid JSON")
        }
        return PassLintReport(findings: context.findings, pass: nil, files: files)
    }

    /// Lints `pass` with its other files, or alone when `files` is `nil`.
    public static func report(_ pass: Pass, files: [String: Data]?) -> PassLintReport {
        var context = LintContext()
        SchemaCheck.check(pass.json, schema: Pass.schema, at: "", in: &context)
        PassChecks.check(pass, files: files, in: &context)
        for (path, data) in (files ?? [:]).sorted(by: { $0.key < $1.key }) {
            DocumentChecks.checkFile(path, data, stringsFile: "pass.strings", in: &context)
        }
        return PassLintReport(findings: context.findings, pass: pass, files: files)
    }

}

extension Pass {
    /// The findings of ``PassLint`` for this pass and its `files` (`nil`: `pass.json` alone).
    public func lint(files: [String: Data]? = nil) -> PassLintReport {
        PassLint.report(self, files: files)
    }

    /// Throws ``WalletDocumentError/invalidPass(_:)`` with every error ``lint(files:)`` finds in `pass.json` alone.
    public func validate() throws {
        let errors = lint().errors
        guard errors.isEmpty else { throw WalletDocumentError.invalidPass(errors) }
    }
}
