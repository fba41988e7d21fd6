/// What a lint run collects: the findings so far, in the order they were found.
struct PassLintContext {
    private(set) var findings: [PassFinding] = []
    /// The keys some language's `pass.strings` has: a text of `pass.json` that is one of them is checked in each
    /// language's text instead.
    var localizedKeys: Set<String> = []

    /// Records an error.
    mutating func error(_ code: String, _ path: String, _ message: String, fix: String? = nil) {
        findings.append(PassFinding(code: code, severity: .error, path: path, message: message, fix: fix))
    }

    /// Records a warning.
    mutating func warning(_ code: String, _ path: String, _ message: String, fix: String? = nil) {
        findings.append(PassFinding(code: code, severity: .warning, path: path, message: message, fix: fix))
    }

    /// Records a note.
    mutating func note(_ code: String, _ path: String, _ message: String) {
        findings.append(PassFinding(code: code, severity: .note, path: path, message: message))
    }

    /// `parent.key`, or `key` at the top.
    static func path(_ parent: String, _ key: String) -> String {
        parent.isEmpty ? key : "\(parent).\(key)"
    }
}
