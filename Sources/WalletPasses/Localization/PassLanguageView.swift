import Foundation
import WalletDocuments

/// How a pass reads on devices in one language: each text Wallet looks up, as that language's `pass.strings`
/// gives it.
public struct PassLanguageView: Hashable, Sendable, Codable {
    /// One text of `pass.json` as the language shows it.
    public struct Text: Hashable, Sendable, Codable {
        /// Its path in `pass.json` (`eventTicket.primaryFields[0].label`).
        public let path: String
        /// What `pass.json` holds there: the key looked up.
        public let key: String
        /// What the language shows: its entry, or the key itself when it has none.
        public let shown: String
        /// Whether the language has an entry for the key.
        public let isLocalized: Bool
    }

    /// The language (`de`).
    public let language: String
    /// Each localizable text, in `pass.json`'s order.
    public let texts: [Text]

    /// The view of each language of `files` whose `pass.strings` reads, sorted by language.
    static func views(of pass: Pass, files: [String: Data]) -> [PassLanguageView] {
        DocumentFiles.languages(in: files.keys).compactMap { language in
            let path = PassPackage.stringsPath(for: language)
            guard let data = files[path], let strings = try? StringsFile(data: data) else { return nil }
            let texts = pass.localizableTexts.map { path, key in
                let entry = strings.entries[key]
                return Text(path: path, key: key, shown: entry ?? key, isLocalized: entry != nil)
            }
            return PassLanguageView(language: language, texts: texts)
        }
    }
}
