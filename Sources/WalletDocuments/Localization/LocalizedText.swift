import Foundation

/// A text in several languages, by language identifier (`en`, `de`, `zh-Hans`, `pt-BR`): what a pass shows in
/// each language through its `xx.lproj/pass.strings` files.
public struct LocalizedText: Hashable, Sendable {
    /// The most languages one text has.
    public static let maximumLanguages = 60

    /// The text in each language, by identifier.
    public let values: [String: String]

    /// A text with `values`.
    ///
    /// - Throws: ``WalletDocumentError/invalidLocalization(_:)`` when there are none or more than
    ///   ``maximumLanguages``, or a key is not a language identifier.
    public init(_ values: [String: String]) throws(WalletDocumentError) {
        guard !values.isEmpty, values.count <= Self.maximumLanguages else {
            throw .invalidLocalization("a localized text has 1 to \(Self.maximumLanguages) languages")
        }
        for language in values.keys where !Self.isLanguage(language) {
            throw .invalidLocalization(
                "'\(language)' is not a language identifier (en, de, zh-Hans, pt-BR: a folder name xx.lproj)")
        }
        self.values = values
    }

    /// The text where a language has none of its own: English when there is one, else the first language's.
    public var fallback: String { values["en"] ?? values[values.keys.sorted()[0]]! }

    /// Whether `identifier` is a language identifier Apple's `.lproj` folders use: a language (two or three
    /// lowercase letters), then optionally a script (`Hans`) and a region (`BR`, `419`).
    public static func isLanguage(_ identifier: String) -> Bool {
        let parts = identifier.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count),
            language.allSatisfy({ $0.isASCII && $0.isLowercase }), parts.count <= 3
        else { return false }
        var rest = parts.dropFirst()
        if let script = rest.first, script.count == 4, script.first!.isUppercase,
            script.allSatisfy({ $0.isASCII && $0.isLetter }), script.dropFirst().allSatisfy(\.isLowercase)
        {
            rest = rest.dropFirst()
        }
        guard let region = rest.first else { return true }
        let isRegion =
            (region.count == 2 && region.allSatisfy { $0.isASCII && $0.isUppercase })
            || (region.count == 3 && region.allSatisfy { $0.isASCII && $0.isNumber })
        return isRegion && rest.count == 1
    }
}
