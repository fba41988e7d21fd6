import Foundation
import CofferSupport
import WalletDocuments
import WalletPasses

/// `PATCH /api/v2/passes/{tag_id}`: a JSON object with at least one of `fields`, `semantics`, `relevant_date`,
/// `expiration_date` and `voided`; absent keys stay as they are.
package struct PassChangeRequest: Decodable, Sendable {
    /// The change the body asks for.
    package let change: PassChange

    package init(from decoder: any Decoder) throws {
        let body = try ManagementBody(
            decoder, keys: ["fields", "semantics", "relevant_date", "expiration_date", "voided"])
        let fields = try body.fields()
        if fields?.isEmpty == true {
            throw PassManagementFailure.invalidRequest(
                "'fields' must set at least one field (leave it out to change none)")
        }
        var change = PassChange(
            fields: fields?.values ?? [:], texts: fields?.texts ?? [:], relevantDate: try body.date("relevant_date"),
            expirationDate: try body.date("expiration_date"))
        change.voided = try body.bool("voided")
        switch try body.value("semantics") {
        case nil: break
        case .object(let tags)? where !tags.isEmpty: change.semantics = tags
        default: throw PassManagementFailure.invalidRequest("'semantics' must be an object of at least one tag")
        }
        guard !change.isEmpty else {
            throw PassManagementFailure.invalidRequest(
                "give at least one of 'fields', 'semantics', 'relevant_date', 'expiration_date' and 'voided'")
        }
        self.change = change
    }

    /// The body that asks for `change`: what the command line sends as a bulk change's `change`.
    package static func body(of change: PassChange) -> [String: JSONValue] {
        func json(_ text: PassFieldText) -> JSONValue {
            switch text {
            case .plain(.text(let value)): return .string(value)
            case .plain(.number(let value)): return .number(value)
            case .localized(let localized): return .object(localized.values.mapValues(JSONValue.string))
            }
        }
        var fields = change.fields.mapValues { json(.plain($0)) }
        for (key, slots) in change.texts {
            fields[key] = .object(
                Dictionary(
                    uniqueKeysWithValues: slots.map { slot, text in
                        (slot == .changeMessage ? "change_message" : slot.rawValue, json(text))
                    }))
        }
        var body: [String: JSONValue] = [:]
        if !fields.isEmpty { body["fields"] = .object(fields) }
        if !change.semantics.isEmpty { body["semantics"] = .object(change.semantics) }
        if let date = change.relevantDate { body["relevant_date"] = .string(RFC3339.milliseconds(date)) }
        if let date = change.expirationDate { body["expiration_date"] = .string(RFC3339.milliseconds(date)) }
        if let voided = change.voided { body["voided"] = .bool(voided) }
        return body
    }
}
