import Foundation
import WalletDocuments

/// What ``PassLint`` found in a pass, and how each iOS shows it.
public struct PassLintReport: DocumentLintReport {
    /// Every finding, in the order the checks ran.
    public let findings: [LintFinding]
    /// The pass as read, or `nil` when `pass.json` is not a JSON dictionary.
    public let pass: Pass?
    private let files: [String: Data]?

    init(findings: [LintFinding], pass: Pass?, files: [String: Data]?) {
        self.findings = findings
        self.pass = pass
        self.files = files
    }

    /// How iOS 17, 18, 26 and 27 show the pass; empty when `pass.json` could not be read. Worked out when asked, as
    /// signing needs only the findings.
    public var renderings: [PassRendering] {
        pass.map { pass in IOSVersion.reported.map { PassRendering(pass, files: files, on: $0) } } ?? []
    }

    /// How the pass reads in each language it has a `pass.strings` for; empty when it has none (or `pass.json`
    /// could not be read).
    public var languageViews: [PassLanguageView] {
        guard let pass, let files else { return [] }
        return PassLanguageView.views(of: pass, files: files)
    }
}
