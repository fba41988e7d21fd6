/// What a lint run collects: the findings so far, in the order they were found.
package struct LintContext {
    package private(set) var findings: [LintFinding] = []

    /// An empty context.
    package init() {}
    /// Each language's `.strings` table that reads, by language, read once for every check.
    package var localizations: [String: StringsFile] = [:]

    /// Whether some language's `.strings` table has `text` as a key: such a text of the document is checked in each
    /// language's text instead.
    package func isLocalizedKey(_ text: String) -> Bool { localizations.values.contains { $0.entries[text] != nil } }

    /// Records an error.
    package mutating func error(_ code: String, _ path: String, _ message: String, fix: String? = nil) {
        findings.append(LintFinding(code: code, severity: .error, path: path, message: message, fix: fix))
    }

    /// Records a warning.
    package mutating func warning(_ code: String, _ path: String, _ message: String, fix: String? = nil) {
        findings.append(LintFinding(code: code, severity: .warning, path: path, message: message, fix: fix))
    }

    /// Records a note.
    package mutating func note(_ code: String, _ path: String, _ message: String) {
        findings.append(LintFinding(code: code, severity: .note, path: path, message: message))
    }

    /// `parent.key`, or `key` at the top.
    package static func path(_ parent: String, _ key: String) -> String {
        parent.isEmpty ? key : "\(parent).\(key)"
    }
}
