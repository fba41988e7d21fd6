import Crypto
import Foundation
import WalletDocuments
import WalletPasses

/// `POST /api/v2/passes`: a new tag (with its user) and its pass, made from a pass type's template and field values.
package struct PassCreationRequest: Hashable, Sendable, Decodable {
    /// The client's reference for the tag.
    package var referenceID: String?
    /// Pronto's tag identifier.
    package var prontoTagID: String?
    /// A subscription identifier.
    package var subscriptionID: String?
    /// The client's reference for the user: the oldest user with it is the tag's owner, or a new one is made.
    package var userReference: String?
    /// The pass type (the only one there is when `nil`).
    package var passTypeID: UUID?
    /// New values of the template's fields, by key.
    package var fields: [String: PassField.Value]
    /// New values, labels and change messages of the template's fields, plain or localized, by key.
    package var texts: [String: [PassFieldText.Slot: PassFieldText]]
    /// When the pass becomes relevant.
    package var relevantDate: Date?
    /// When the pass expires.
    package var expirationDate: Date?

    /// Creates a request.
    package init(
        referenceID: String? = nil, prontoTagID: String? = nil, subscriptionID: String? = nil,
        userReference: String? = nil, passTypeID: UUID? = nil, fields: [String: PassField.Value] = [:],
        texts: [String: [PassFieldText.Slot: PassFieldText]] = [:], relevantDate: Date? = nil,
        expirationDate: Date? = nil
    ) {
        self.texts = texts
        self.referenceID = referenceID
        self.prontoTagID = prontoTagID
        self.subscriptionID = subscriptionID
        self.userReference = userReference
        self.passTypeID = passTypeID
        self.fields = fields
        self.relevantDate = relevantDate
        self.expirationDate = expirationDate
    }

    /// The keys a body may have.
    static let keys: Set<String> = [
        "reference_id", "pronto_tag_id", "subscription_id", "user_reference", "pass_type_id", "fields",
        "relevant_date", "expiration_date",
    ]

    /// Reads a request body: a JSON object with only the known keys, each of its type.
    ///
    /// - Throws: ``PassManagementFailure/invalidRequest(_:)`` naming the key at fault.
    package init(from decoder: any Decoder) throws {
        let body = try ManagementBody(decoder, keys: Self.keys)
        referenceID = try body.identifier("reference_id")
        prontoTagID = try body.identifier("pronto_tag_id")
        subscriptionID = try body.identifier("subscription_id")
        guard referenceID != nil || prontoTagID != nil || subscriptionID != nil else {
            throw PassManagementFailure.invalidRequest(
                "give at least one of 'reference_id', 'pronto_tag_id' and 'subscription_id'")
        }
        userReference = try body.identifier("user_reference")
        if let text = try body.string("pass_type_id") {
            guard let id = UUID(uuidString: text) else {
                throw PassManagementFailure.invalidRequest("'pass_type_id' is not a UUID")
            }
            passTypeID = id
        }
        let managed = try body.fields() ?? ManagedFields()
        fields = managed.values
        texts = managed.texts
        relevantDate = try body.date("relevant_date")
        expirationDate = try body.date("expiration_date")
    }

    /// The SHA-256 of the request's meaning (not its spelling): two bodies that differ only in whitespace, key order
    /// or number notation hash alike. An idempotency key's stored request is compared by it.
    package var fingerprint: Data {
        var text = ""
        func add(_ name: String, _ value: String?) {
            // Length-prefixed, so that no value can run into the next.
            guard let value else { return text += "\(name)=-;" }
            text += "\(name)=\(value.utf8.count):\(value);"
        }
        add("reference_id", referenceID)
        add("pronto_tag_id", prontoTagID)
        add("subscription_id", subscriptionID)
        add("user_reference", userReference)
        add("pass_type_id", passTypeID?.uuidString)
        for key in fields.keys.sorted() {
            switch fields[key]! {
            case .text(let value): add("field.\(key.utf8.count):\(key).text", value)
            case .number(let value): add("field.\(key.utf8.count):\(key).number", "\(value)")
            }
        }
        for key in texts.keys.sorted() {
            for slot in PassFieldText.Slot.allCases {
                switch texts[key]![slot] {
                case nil: continue
                case .plain(.text(let value))?: add("text.\(key.utf8.count):\(key).\(slot.rawValue).text", value)
                case .plain(.number(let value))?:
                    add("text.\(key.utf8.count):\(key).\(slot.rawValue).number", "\(value)")
                case .localized(let localized)?:
                    for language in localized.values.keys.sorted() {
                        add("text.\(key.utf8.count):\(key).\(slot.rawValue).\(language)", localized.values[language])
                    }
                }
            }
        }
        add("relevant_date", relevantDate.map { "\($0.timeIntervalSince1970)" })
        add("expiration_date", expirationDate.map { "\($0.timeIntervalSince1970)" })
        return Data(SHA256.hash(data: Data(text.utf8)))
    }
}
