import Foundation
import WalletDocuments
import WalletPasses

/// A change to a pass's content: new field values, labels and change messages (each in one language or several),
/// semantic tags, dates, or its end. What is `nil` stays as it is.
public struct PassChange: Hashable, Sendable {
    /// New values by field key (a key of one of the template's fields: header, primary, secondary, auxiliary or
    /// back).
    public var fields: [String: PassField.Value]
    /// New values, labels and change messages by field key, each plain or localized: a localized one is written
    /// to each language's `pass.strings` (`PassPackage/setField(_:ofKey:to:)`).
    public var texts: [String: [PassFieldText.Slot: PassFieldText]]
    /// When the pass becomes relevant.
    public var relevantDate: Date?
    /// When the pass expires: Wallet shows it as expired from then on.
    public var expirationDate: Date?
    /// Whether the pass is void (used, cancelled): Wallet shows it as no longer valid.
    public var voided: Bool?
    /// New values of semantic tags (`eventStartDate`, `venueName`, `departureGate`), `null` removing one: what
    /// moves when an event or a trip does.
    public var semantics: [String: JSONValue]

    /// Creates a change.
    public init(
        fields: [String: PassField.Value] = [:], texts: [String: [PassFieldText.Slot: PassFieldText]] = [:],
        relevantDate: Date? = nil, expirationDate: Date? = nil, voided: Bool? = nil,
        semantics: [String: JSONValue] = [:]
    ) {
        self.fields = fields
        self.texts = texts
        self.relevantDate = relevantDate
        self.expirationDate = expirationDate
        self.voided = voided
        self.semantics = semantics
    }

    /// Whether the change changes nothing.
    public var isEmpty: Bool {
        fields.isEmpty && texts.isEmpty && relevantDate == nil && expirationDate == nil && voided == nil
            && semantics.isEmpty
    }

    /// The keys of the fields the change sets.
    public var fieldKeys: Set<String> { Set(fields.keys).union(texts.keys) }

    /// The most fields one change sets.
    public static let maximumFields = 100
    /// The longest text value of a field, in characters.
    public static let maximumValueLength = 2048

    /// `package` with the change applied: ``applied(to:)-(Pass)`` to its `pass.json`, then each of ``texts``.
    ///
    /// - Throws: What ``applied(to:)-(Pass)`` throws; ``WalletServerError/invalidArgument(_:)`` for a text of a field
    ///   the pass has not, or a text Wallet cannot take.
    public func applied(to package: PassPackage) throws -> PassPackage {
        guard fieldKeys.count <= Self.maximumFields else {
            throw WalletServerError.invalidArgument("a change sets at most \(Self.maximumFields) fields")
        }
        var package = package
        try package.setPass(try applied(to: package.pass))
        for key in texts.keys.sorted() {
            for slot in PassFieldText.Slot.allCases {
                guard let text = texts[key]![slot] else { continue }
                let values: [String]
                switch text {
                case .plain(.text(let value)): values = [value]
                case .plain(.number): values = []
                case .localized(let localized): values = Array(localized.values.values)
                }
                if values.contains(where: { $0.count > Self.maximumValueLength }) {
                    throw WalletServerError.invalidArgument(
                        "a \(slot.rawValue) of field '\(key)' is longer than \(Self.maximumValueLength) characters")
                }
                do {
                    guard try package.setField(slot, ofKey: key, to: text) else {
                        throw WalletServerError.invalidArgument(
                            "the pass has no field '\(key)' (its fields: "
                                + "\(try package.pass.fields.keys.joined(separator: ", ")))")
                    }
                } catch WalletDocumentError.invalidLocalization(let reason) {
                    throw WalletServerError.invalidArgument(reason)
                }
            }
        }
        return package
    }

    /// `pass` with the change applied, but for ``texts``, which need the pass's files.
    ///
    /// - Throws: ``WalletServerError/invalidArgument(_:)`` naming a key the pass has no field for, or a value that
    ///   is too long.
    public func applied(to pass: Pass) throws -> Pass {
        guard fields.count <= Self.maximumFields else {
            throw WalletServerError.invalidArgument("a change sets at most \(Self.maximumFields) fields")
        }
        var pass = pass
        for key in fields.keys.sorted() {
            let value = fields[key]!
            if case .text(let text) = value, text.count > Self.maximumValueLength {
                throw WalletServerError.invalidArgument(
                    "the value of field '\(key)' is longer than \(Self.maximumValueLength) characters")
            }
            guard pass.fields.setValue(value, forKey: key) else {
                throw WalletServerError.invalidArgument(
                    "the pass has no field '\(key)' (its fields: \(pass.fields.keys.joined(separator: ", ")))")
            }
        }
        guard semantics.count <= Self.maximumFields else {
            throw WalletServerError.invalidArgument("a change sets at most \(Self.maximumFields) semantic tags")
        }
        if !semantics.isEmpty {
            var tags = pass.semantics ?? PassSemantics()
            for (key, value) in semantics {
                guard PassSemantics.schema.entry(for: key) != nil else {
                    throw WalletServerError.invalidArgument("'\(key)' is not one of Apple's semantic tags")
                }
                tags.json[key] = value == .null ? nil : value
            }
            pass.semantics = tags.json.isEmpty ? nil : tags
        }
        if let relevantDate { pass.relevantDate = relevantDate }
        if let expirationDate { pass.expirationDate = expirationDate }
        if let voided { pass.voided = voided ? true : nil }
        return pass
    }
}
