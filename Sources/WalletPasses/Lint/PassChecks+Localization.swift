import Foundation
import WalletDocuments

extension PassChecks {
    /// The checks of the `xx.lproj` folders: each `pass.strings` that reads has an entry for every
    /// key `pass.json` looks up in any language and none that nothing uses; each folder is named for a language;
    /// no localized image is hidden by a top-level one of the same name.
    static func checkLocalizations(_ pass: Pass, files: [String: Data], in context: inout LintContext) {
        let languages = DocumentFiles.languages(in: files.keys)
        for language in languages where !LocalizedText.isLanguage(language) {
            context.warning(
                "localization.language", "\(language).lproj",
                "is not named for a language identifier (en, de, zh-Hans, pt-BR): no device may pick it")
        }
        let tables = context.localizations
        checkEntries(pass, tables: tables, languages: languages, in: &context)
        for (path, key) in pass.localizableTexts where path.hasSuffix(".changeMessage") {
            for language in tables.keys.sorted() {
                guard let message = tables[language]?.entries[key], !message.contains("%@") else { continue }
                context.error(
                    "field.change-message", PassPackage.stringsPath(for: language),
                    "has '\(message)' for \(path), without the %@ Wallet replaces with the new value")
            }
        }
        for path in files.keys.sorted() where path.contains(".lproj/") {
            guard let name = path.split(separator: "/").last, name.hasSuffix(".png"), files[String(name)] != nil
            else { continue }
            context.warning(
                "image.shadowed", path, "is never shown: the top-level \(name) overrides every localized version",
                fix: "remove the top-level \(name), giving each language its own")
        }
    }

    /// The `pass.strings` of each language in `files` that reads (one that does not is reported with the other
    /// files, by `DocumentChecks.checkFile`).
    package static func localizedTables(_ files: [String: Data]) -> [String: StringsFile] {
        var tables: [String: StringsFile] = [:]
        for language in DocumentFiles.languages(in: files.keys) {
            if let data = files[PassPackage.stringsPath(for: language)], let strings = try? StringsFile(data: data) {
                tables[language] = strings
            }
        }
        return tables
    }

    /// Every key looked up in one language is in each language's `pass.strings`; every entry is used.
    private static func checkEntries(
        _ pass: Pass, tables: [String: StringsFile], languages: [String], in context: inout LintContext
    ) {
        guard !tables.isEmpty else { return }
        let keys = Set(tables.values.flatMap(\.entries.keys))
        var lookedUp: [(path: String, key: String)] = []
        for (path, text) in pass.localizableTexts where keys.contains(text) {
            lookedUp.append((path, text))
        }
        let used = Set(DocumentChecks.stringValues(in: .object(pass.json)))
        for language in languages {
            let path = PassPackage.stringsPath(for: language)
            let entries = tables[language]?.entries ?? [:]
            for (textPath, key) in lookedUp where entries[key] == nil {
                context.warning(
                    "strings.missing", path,
                    "has no entry for '\(key)' (\(textPath)): devices in this language show the key itself",
                    fix: "add \"\(key)\" = \"…\"; to it")
            }
            for key in entries.keys.sorted() where !used.contains(key) {
                context.warning("strings.unused", path, "has an entry for '\(key)', which no text of pass.json uses")
            }
        }
    }

}
