import Foundation
import WalletDocuments

extension OrderChecks {
    /// The checks of the package's files: every file `order.json` names is there (at the top, or in every
    /// localization), the localizations are complete, and the whole stays under Wallet's size.
    static func checkFiles(
        _ order: Order, images: [(path: String, name: String)], files: [String: Data],
        in context: inout LintContext
    ) {
        let languages = DocumentFiles.languages(in: files.keys)
        var referenced: Set<String> = []
        for (path, name) in images {
            let top = files.keys.filter { !$0.contains("/") && names(name, $0) }
            referenced.formUnion(top)
            let localized = languages.map { language in
                files.keys.filter { $0.hasPrefix("\(language).lproj/") && names(name, $0) }
            }
            referenced.formUnion(localized.joined())
            if top.isEmpty, localized.allSatisfy(\.isEmpty) {
                context.error("file.missing", path, "names '\(name)', which the package does not hold")
            } else if top.isEmpty, let index = localized.firstIndex(where: \.isEmpty) {
                context.warning(
                    "file.missing", "\(languages[index]).lproj",
                    "has no '\(name)' (\(path)): devices in this language show none")
            }
        }
        for path in files.keys.sorted() where !referenced.contains(path) && !path.hasSuffix("/order.strings") {
            context.note("file.unused", path, "is not named by order.json; Wallet ignores it")
        }
        for language in languages where !LocalizedText.isLanguage(language) {
            context.warning(
                "localization.language", "\(language).lproj",
                "is not named for a language identifier (en, de, zh-Hans, pt-BR): no device may pick it")
        }
        checkStrings(order, languages: languages, files: files, in: &context)
        let total = files.values.reduce(order.json.isEmpty ? 0 : (try? order.encoded())?.count ?? 0) { $0 + $1.count }
        if total >= maximumPackageSize {
            context.error(
                "order.size", "order.json",
                "the package's files total \(total) bytes; Wallet takes orders below \(maximumPackageSize) bytes")
        }
    }

    /// Whether the package path `path` is the file `name` names: the same name, or a `@2x`/`@3x` variant of it (and
    /// of any image type when `name` has no extension).
    static func names(_ name: String, _ path: String) -> Bool {
        let file = String(path.split(separator: "/").last ?? "")
        if file == name { return true }
        let (stem, fileExtension) = split(name)
        let (fileStem, actualExtension) = split(file)
        guard fileExtension == nil || fileExtension == actualExtension else { return false }
        if fileExtension == nil, actualExtension == nil { return false }
        return fileStem == stem || fileStem == stem + "@2x" || fileStem == stem + "@3x"
    }

    /// `logo@2x.png` is `("logo@2x", "png")`; a name without a known extension has none.
    private static func split(_ name: String) -> (stem: String, extension: String?) {
        guard let dot = name.lastIndex(of: "."),
            ["png", "jpg", "jpeg", "pdf"].contains(name[name.index(after: dot)...].lowercased())
        else { return (name, nil) }
        return (String(name[..<dot]), name[name.index(after: dot)...].lowercased())
    }

    /// Every `order.strings` has each key some language translates and `order.json` uses, and no entry nothing uses.
    static func checkStrings(
        _ order: Order, languages: [String], files: [String: Data], in context: inout LintContext
    ) {
        var tables: [String: StringsFile] = [:]
        for language in languages {
            let path = OrderPackage.stringsPath(for: language)
            guard let data = files[path] else {
                context.warning(
                    "strings.missing", "\(language).lproj", "has no order.strings: Apple asks for one in every language"
                )
                continue
            }
            if let strings = try? StringsFile(data: data) { tables[language] = strings }
        }
        guard !tables.isEmpty else { return }
        let used = Set(DocumentChecks.stringValues(in: .object(order.json)))
        let translated = used.intersection(tables.values.flatMap(\.entries.keys))
        for language in tables.keys.sorted() {
            let path = OrderPackage.stringsPath(for: language)
            let entries = tables[language]!.entries
            for key in translated.sorted() where entries[key] == nil {
                context.warning(
                    "strings.missing", path, "has no entry for '\(key)': devices in this language show the key itself",
                    fix: "add \"\(key)\" = \"…\"; to it")
            }
            for key in entries.keys.sorted() where !used.contains(key) {
                context.warning("strings.unused", path, "has an entry for '\(key)', which no text of order.json uses")
            }
        }
    }
}
