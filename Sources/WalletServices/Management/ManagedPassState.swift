import CofferSupport
import Foundation
import Secrets
import WalletDocuments
import WalletPasses

/// What the management API answers about a tag's pass: its identifiers, its content's mutable parts, and where it
/// stands with devices.
package struct ManagedPassState: Codable, Hashable, Sendable {
    /// Where a pass stands with account binding.
    package enum BindingState: String, Codable, Hashable, Sendable, CaseIterable {
        /// No issuer data was ever signed for it.
        case unbound
        /// Issuer data was signed, but no device has bound it yet.
        case issued
        /// A device bound it (its callback came back).
        case bound
    }

    /// The tag's identifiers.
    package struct Tag: Codable, Hashable, Sendable {
        /// The tag's own identifier.
        package var id: UUID
        /// The client's reference, if any.
        package var referenceID: String?
        /// Pronto's tag identifier, if any.
        package var prontoTagID: String?
        /// The subscription identifier, if any.
        package var subscriptionID: String?

        /// Creates the identifiers of a tag.
        package init(id: UUID, referenceID: String?, prontoTagID: String?, subscriptionID: String?) {
            (self.id, self.referenceID, self.prontoTagID, self.subscriptionID) = (
                id, referenceID, prontoTagID, subscriptionID
            )
        }

        enum CodingKeys: String, CodingKey {
            case id
            case referenceID = "reference_id"
            case prontoTagID = "pronto_tag_id"
            case subscriptionID = "subscription_id"
        }
    }

    /// The tag the pass belongs to.
    package var tag: Tag
    /// The pass's own identifier.
    package var passID: UUID
    /// The pass type identifier it is signed for (`pass.com.example.ticket`).
    package var passTypeIdentifier: String
    /// Its serial number.
    package var serialNumber: String
    /// Every field of `pass.json` (header, primary, secondary, auxiliary and back fields), key to value; a
    /// localized value as its fallback text (English, when it has English).
    package var fields: [String: PassField.Value]
    /// The localized texts of the fields that have some: field key to slot (`value`, `label`, `change_message`) to
    /// language to text.
    package var localizedFields: [String: [String: [String: String]]] = [:]
    /// Whether the pass is voided.
    package var voided: Bool
    /// When the pass expires, if it does.
    package var expirationDate: Date?
    /// When the pass is relevant, if it is.
    package var relevantDate: Date?
    /// Where it stands with account binding.
    package var bindingState: BindingState
    /// How many devices are registered for its updates.
    package var registrations: Int
    /// When it last changed.
    package var updatedAt: Date
    /// The web service's update tag of its last change (opaque, grows with every change).
    package var updateTag: String

    /// Creates a state.
    package init(
        tag: Tag, passID: UUID, passTypeIdentifier: String, serialNumber: String,
        fields: [String: PassField.Value], voided: Bool, expirationDate: Date?, relevantDate: Date?,
        bindingState: BindingState, registrations: Int, updatedAt: Date, updateTag: String,
        localizedFields: [String: [String: [String: String]]] = [:]
    ) {
        self.localizedFields = localizedFields
        self.tag = tag
        self.passID = passID
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.fields = fields
        self.voided = voided
        self.expirationDate = expirationDate
        self.relevantDate = relevantDate
        self.bindingState = bindingState
        self.registrations = registrations
        self.updatedAt = updatedAt
        self.updateTag = updateTag
    }

    enum CodingKeys: String, CodingKey {
        case tag
        case passID = "pass_id"
        case passTypeIdentifier = "pass_type_identifier"
        case serialNumber = "serial_number"
        case fields, voided
        case localizedFields = "localized_fields"
        case expirationDate = "expiration_date"
        case relevantDate = "relevant_date"
        case bindingState = "binding_state"
        case registrations
        case updatedAt = "updated_at"
        case updateTag = "update_tag"
    }

    /// Writes every key, absent dates as `null`, so that a client sees the whole shape every time.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tag, forKey: .tag)
        try container.encode(passID, forKey: .passID)
        try container.encode(passTypeIdentifier, forKey: .passTypeIdentifier)
        try container.encode(serialNumber, forKey: .serialNumber)
        try container.encode(fields, forKey: .fields)
        try container.encode(localizedFields, forKey: .localizedFields)
        try container.encode(voided, forKey: .voided)
        try container.encode(expirationDate, forKey: .expirationDate)
        try container.encode(relevantDate, forKey: .relevantDate)
        try container.encode(bindingState, forKey: .bindingState)
        try container.encode(registrations, forKey: .registrations)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(updateTag, forKey: .updateTag)
    }

    /// The state's JSON as the API answers it: sorted keys, ISO-8601 dates in UTC with milliseconds.
    package func encoded() throws -> Data { try Self.encoder.encode(self) }

    /// The pass's mutable parts, read from its archive: `pass.json` and, only when a field has localized texts,
    /// its `pass.strings` files.
    package static func content(ofArchive archive: Data) throws -> (
        fields: [String: PassField.Value], localized: [String: [String: [String: String]]], voided: Bool,
        expiration: Date?, relevant: Date?
    ) {
        let pass = try PassPackage.pass(inArchive: archive)
        var fields: [String: PassField.Value] = [:]
        var localized: [String: [String: [String: String]]] = [:]
        var package: PassPackage?
        for key in pass.fields.keys where fields[key] == nil {
            guard let field = pass.fields.field(forKey: key) else { continue }
            fields[key] = field.value
            let isLocalized = PassFieldText.Slot.allCases.contains { slot in
                guard case .string(let text)? = field.json[slot.rawValue] else { return false }
                return slot.isLocalizationKey(text, ofField: key)
            }
            guard isLocalized else { continue }
            if package == nil { package = try PassPackage(archive: archive) }
            let texts = try package!.localizedTexts(ofField: key)
            if let value = texts[.value] { fields[key] = .text(value.fallback) }
            localized[key] = Dictionary(uniqueKeysWithValues: texts.map { (Self.slotNames[$0.key]!, $0.value.values) })
        }
        return (fields, localized, pass.voided ?? false, pass.expirationDate, pass.relevantDate)
    }

    /// The API's names of a field's texts.
    static let slotNames: [PassFieldText.Slot: String] = [
        .value: "value", .label: "label", .changeMessage: "change_message",
    ]

    /// Made once: shared by every request, never reconfigured.
    package static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ManagedPassState.timestamp(date))
        }
        return encoder
    }()

    /// A JSON decoder for states (tests and clients written in Swift).
    package static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = RFC3339.date(text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not an ISO 8601 date"))
            }
            return date
        }
        return decoder
    }

    /// `date` as ISO 8601 in UTC with milliseconds (`2026-11-24T04:30:00.125Z`).
    static func timestamp(_ date: Date) -> String { fractional.format(date) }

    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
