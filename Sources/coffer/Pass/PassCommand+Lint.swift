import ArgumentParser
import Foundation
import WalletDocuments
import WalletPasses

extension PassCommand {
    /// `coffer pass lint`.
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lint",
            abstract: "Check a pass as Wallet reads it, and tell how iOS 17, 18, 26 and 27 show it.",
            discussion: """
                Reads a pass folder, a Pass Designer .pkpasstemplate (folder or ZIP) or a .pkpass. Prints each \
                finding with its path in pass.json (or its file), then how each iOS shows the pass: the layout it \
                picks and the keys it ignores, which Wallet drops silently; then, for a localized pass, how each \
                language reads each text its pass.strings gives. Exits 1 when there are errors (or \
                warnings, with --strict). --fix applies the safe fixes to a folder's pass.json and says what it \
                changed.
                """)

        @Argument(help: "The pass folder, .pkpasstemplate or .pkpass.") var source: String
        @Flag(help: "Print the findings as a JSON array (code, severity, path, message, fix).") var json = false
        @Flag(help: "Apply the safe fixes to the folder's pass.json before checking.") var fix = false
        @Flag(help: "Exit 1 on warnings too.") var strict = false

        func run() throws {
            let url = StoreOptions.absoluteURL(source)
            if fix { try applyFixes(in: url) }
            let report = try CommandFailure.mapping { try PassPackage(contentsOf: url).lint() }
            if json {
                try Output.printJSON(report.findings)
            } else {
                printText(report)
            }
            try LintOutput.finish(report, source: source, strict: strict)
        }

        /// Fixes `pass.json` in the folder at `url`, and reports each change on standard error.
        private func applyFixes(in url: URL) throws {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw CommandFailure(
                    "--fix changes a folder's pass.json; a .pkpass or a zipped template cannot be changed in place",
                    status: .usage)
            }
            let file = url.appendingPathComponent("pass.json")
            guard let data = try? Data(contentsOf: file),
                case .object(let object)? = try? JSONValue(parsing: data)
            else {
                throw CommandFailure("\(file.path) is not a readable JSON dictionary: nothing to fix", status: .usage)
            }
            let (fixed, changes) = PassFixer.fix(Pass(json: object))
            guard !changes.isEmpty else { return Output.note("nothing to fix") }
            do {
                try fixed.encoded().write(to: file, options: .atomic)
            } catch {
                throw CommandFailure("cannot write \(file.path): check that this user may write it", status: .failure)
            }
            for change in changes { Output.note("fixed [\(change.code)] \(change)") }
        }

        private func printText(_ report: PassLintReport) {
            LintOutput.printFindings(report.findings)
            if !report.renderings.isEmpty {
                if !report.findings.isEmpty { print("") }
                print("How each iOS shows it:")
                for rendering in report.renderings {
                    var line = "  \(rendering.os): \(rendering.layout)"
                    if let reason = rendering.fallbackReason { line += " (\(reason))" }
                    line += ", " + (rendering.barcode.map { "barcode \($0)" } ?? "no barcode")
                    if !rendering.ignoredKeys.isEmpty {
                        line += "; ignores " + rendering.ignoredKeys.joined(separator: ", ")
                    }
                    print(line)
                }
            }
            printLanguages(report.languageViews)
            LintOutput.printCounts(report)
        }

        /// Each language's texts, of those some language localizes.
        private func printLanguages(_ views: [PassLanguageView]) {
            let localized = Set(views.flatMap { $0.texts.filter(\.isLocalized).map(\.path) })
            guard !localized.isEmpty else { return }
            print("")
            print("How each language reads:")
            for view in views {
                print("  \(view.language):")
                for text in view.texts where localized.contains(text.path) {
                    print("    \(text.path): \(text.shown)" + (text.isLocalized ? "" : "  (no entry: shows the key)"))
                }
            }
        }
    }
}
