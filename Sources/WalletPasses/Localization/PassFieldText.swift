import Crypto
import Foundation
import Secrets
import WalletDocuments

/// A new text for one of a field's texts (its value, label or change message): the same in every language, or
/// localized.
public enum PassFieldText: Hashable, Sendable {
    /// One text (or, for a value, a number) for every language.
    case plain(PassField.Value)
    /// A text in each of several languages.
    case localized(LocalizedText)

    /// Which of a field's texts.
    public enum Slot: String, Hashable, Sendable, CaseIterable {
        /// `value`.
        case value
        /// `label`.
        case label
        /// `changeMessage`.
        case changeMessage

        /// Whether `text` is a key ``PassPackage/setField(_:ofKey:to:)`` made for this slot of the field `fieldKey`.
        public func isLocalizationKey(_ text: String, ofField fieldKey: String) -> Bool {
            let prefix = "\(fieldKey).\(rawValue)."
            guard text.hasPrefix(prefix) else { return false }
            let digest = text.dropFirst(prefix.count)
            return digest.count == 8 && digest.allSatisfy(\.isHexDigit)
        }
    }
}

extension PassPackage {
    /// Sets `slot` of the field whose key is `fieldKey` to `text`; returns whether the pass has that field.
    ///
    /// A localized text is written to every language's `pass.strings` (``localize(_:as:)``) under a key made of the
    /// field's key, the slot and a digest of the text (`gate.value.1a2b3c4d`), which `pass.json` then holds: a new
    /// translation changes `pass.json`, so Wallet sees the change (and shows its `changeMessage`). The entries of a
    /// key this method made before for the slot are removed.
    ///
    /// - Throws: ``WalletDocumentError/invalidLocalization(_:)`` for a number as a label or change message, or a
    ///   `pass.strings` that cannot be read.
    @discardableResult
    public mutating func setField(_ slot: PassFieldText.Slot, ofKey fieldKey: String, to text: PassFieldText) throws
        -> Bool
    {
        var pass = try pass
        guard let field = pass.fields.field(forKey: fieldKey) else { return false }
        let newValue: JSONValue
        switch text {
        case .plain(.number) where slot != .value:
            throw WalletDocumentError.invalidLocalization("a field's \(slot.rawValue) must be text, not a number")
        case .plain(let value):
            newValue = value.documentJSON
        case .localized(let localized):
            let key = "\(fieldKey).\(slot.rawValue)." + Self.digest(of: localized)
            try localize(key, as: localized)
            newValue = .string(key)
        }
        if case .string(let old)? = field.json[slot.rawValue], slot.isLocalizationKey(old, ofField: fieldKey),
            newValue != .string(old)
        {
            try removeLocalization(old)
        }
        pass.fields.modifyField(forKey: fieldKey) { $0.json[slot.rawValue] = newValue }
        try setPass(pass)
        return true
    }

    /// The texts of the field `fieldKey` that ``setField(_:ofKey:to:)`` localized, by slot, in each language the
    /// pass has an entry in.
    public func localizedTexts(ofField fieldKey: String) throws -> [PassFieldText.Slot: LocalizedText] {
        guard let field = try pass.fields.field(forKey: fieldKey) else { return [:] }
        var texts: [PassFieldText.Slot: LocalizedText] = [:]
        for slot in PassFieldText.Slot.allCases {
            guard case .string(let key)? = field.json[slot.rawValue], slot.isLocalizationKey(key, ofField: fieldKey)
            else { continue }
            var values: [String: String] = [:]
            for language in languages where LocalizedText.isLanguage(language) {
                values[language] = try strings(for: language).entries[key]
            }
            if !values.isEmpty { texts[slot] = try LocalizedText(values) }
        }
        return texts
    }

    /// The first 8 hexadecimal digits of the SHA-256 of `text`'s languages and values.
    private static func digest(of text: LocalizedText) -> String {
        var hash = SHA256()
        for language in text.values.keys.sorted() {
            hash.update(data: Data("\(language)\u{0}\(text.values[language]!)\u{0}".utf8))
        }
        return hash.finalize().prefix(4).hexString
    }
}
