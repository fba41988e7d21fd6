import Foundation
import WalletDocuments

extension PassPackage {
    /// The languages the pass has folders for (`de` for `de.lproj/`), sorted.
    public var languages: [String] { DocumentFiles.languages(in: files.keys) }

    /// Where `language`'s `pass.strings` is.
    public static func stringsPath(for language: String) -> String { "\(language).lproj/pass.strings" }

    /// `language`'s `pass.strings`, empty when the language has none.
    ///
    /// - Throws: ``WalletDocumentError/invalidLocalization(_:)`` naming the file when it cannot be read.
    public func strings(for language: String) throws(WalletDocumentError) -> StringsFile {
        let path = Self.stringsPath(for: language)
        guard let data = files[path] else { return StringsFile() }
        do {
            return try StringsFile(data: data)
        } catch {
            throw .invalidLocalization("\(path) \(error)")
        }
    }

    /// Writes `language`'s `pass.strings` (UTF-16, as Apple asks).
    public mutating func setStrings(_ strings: StringsFile, for language: String) throws {
        guard LocalizedText.isLanguage(language) else {
            throw WalletDocumentError.invalidLocalization("'\(language)' is not a language identifier")
        }
        try add(strings.encoded(), at: Self.stringsPath(for: language))
    }

    /// Makes the key `key` show `text`: in each of its languages their own, and in every other language the pass
    /// has the text's ``LocalizedText/fallback`` (the language Wallet picks for a device whose language the pass
    /// lacks is not defined, so every language gets every key).
    ///
    /// - Throws: ``WalletDocumentError/invalidLocalization(_:)`` for a `pass.strings` that cannot be read.
    public mutating func localize(_ key: String, as text: LocalizedText) throws {
        let all = Set(languages).union(text.values.keys)
        guard all.count <= LocalizedText.maximumLanguages else {
            throw WalletDocumentError.invalidLocalization(
                "a pass has at most \(LocalizedText.maximumLanguages) languages; this one would have \(all.count)")
        }
        for language in all.sorted() {
            var strings = try strings(for: language)
            strings.entries[key] = text.values[language] ?? text.fallback
            try setStrings(strings, for: language)
        }
    }

    /// Removes the key `key` from every language's `pass.strings`.
    public mutating func removeLocalization(_ key: String) throws {
        for language in languages where files[Self.stringsPath(for: language)] != nil {
            var strings = try strings(for: language)
            guard strings.entries.removeValue(forKey: key) != nil else { continue }
            try setStrings(strings, for: language)
        }
    }
}
