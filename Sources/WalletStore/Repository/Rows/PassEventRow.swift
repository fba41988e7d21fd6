import Foundation
import WalletDocuments
import WalletPasses
import WalletServices

/// A row of `pass_events`: one event of a pass's trace.
struct PassEventRow: TableRow {
    /// The table the rows are in.
    static let table = "pass_events"

    /// The columns of `pass_events`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case passID = "pass_id"
        case occurredAt = "occurred_at"
        case kind
        case device
        case details
    }

    /// The event's place in the trace (given by the database).
    var id: Int64
    /// The pass.
    var passID: String
    /// When it happened, in milliseconds.
    var occurredAt: Int64
    /// `PassEvent/Kind`'s raw value.
    var kind: String
    /// The device's keyed hash, if any.
    var device: String?
    /// The details, a JSON object.
    var details: String

    /// The columns an insert gives (every one but `id`).
    static let insertedColumns: [CodingKeys] = [.passID, .occurredAt, .kind, .device, .details]

    /// The values of ``insertedColumns`` for `event`.
    static func values(of event: NewPassEvent) -> [any Encodable & Sendable] {
        [
            event.passID.uuidString, SQLWalletRepository.ms(event.occurredAt), event.kind.rawValue, event.device,
            details(of: event),
        ]
    }

    /// The `details` column of `event`: its details as a JSON object, serialized the same way every time.
    static func details(of event: NewPassEvent) -> String {
        String(decoding: JSONValue.object(event.details).serialized(), as: UTF8.self)
    }

    /// The event this row stores; a kind this server does not know, or details that are not an object, mean the
    /// record is corrupt.
    func model() throws -> PassEvent {
        guard let kind = PassEvent.Kind(rawValue: kind) else {
            throw WalletServerError.corruptRecord("pass event \(id)'s kind '\(self.kind)'")
        }
        guard case .object(let details)? = try? JSONValue(parsing: Data(details.utf8)) else {
            throw WalletServerError.corruptRecord("pass event \(id)'s details")
        }
        return PassEvent(
            id: id, passID: try Self.uuid(passID, .passID), occurredAt: SQLWalletRepository.date(occurredAt),
            kind: kind, device: device, details: details)
    }
}
