import CofferSupport
import Foundation
import Secrets
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
    /// Every field of `pass.json` (header, primary, secondary, auxiliary and back fields), key to value.
    package var fields: [String: PassField.Value]
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
        bindingState: BindingState, registrations: Int, updatedAt: Date, updateTag: String
    ) {
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

    /// The pass's mutable parts, read from its `pass.json`.
    package static func content(of pass: Pass) -> (
        fields: [String: PassField.Value], voided: Bool, expiration: Date?, relevant: Date?
    ) {
        var fields: [String: PassField.Value] = [:]
        for key in pass.fields.keys { fields[key] = fields[key] ?? pass.fields.value(forKey: key) }
        return (fields, pass.voided ?? false, pass.expirationDate, pass.relevantDate)
    }

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
